"""Table notices in order (issue #28, item 6): each notice carries a number `n` that the
protocol checks strictly, a server's numbers only grow, the cluster's relay keeps them,
and a client applies only a notice newer than the last it applied for that table — a
"paused" the owner queued while Redis was away is not shown after "resumed"."""

import json

import pytest
from helpers import running_server
from test_net import answers, raw

from weathering_tui.net import protocol as pr
from weathering_tui.net import server_messages as msg
from weathering_tui.net.client import TableClient
from weathering_tui.net.notice_order import NoticeClock
from weathering_tui.storage.redis_store import RedisStore


def notice(kind: str, n: int, table: str = "k", **fields) -> bytes:
    return msg.server_line("notice", table=table, kind=kind, name="", n=n, **fields)


def heard() -> tuple[TableClient, list]:
    """A client and the notices it applied (what its app would show), in order."""
    applied = []
    client = TableClient(on_event=lambda m: isinstance(m, msg.Notice) and applied.append(m))
    return client, applied


def test_a_notice_without_a_whole_order_number_is_no_message():
    assert msg.parse_server(notice("paused", 0)) == msg.Notice("k", "paused", "", 0)
    for wrong in (-1, True, "5", 5.0, None):
        with pytest.raises(TypeError):
            notice("paused", wrong)  # the server cannot send it
        line = json.dumps(
            {"type": "notice", "table": "k", "kind": "paused", "name": "", "n": wrong}
        )
        with pytest.raises(pr.ProtocolError):
            msg.parse_server(line.encode())
    with pytest.raises(pr.ProtocolError):  # nor without one
        msg.parse_server(b'{"type": "notice", "table": "k", "kind": "paused", "name": ""}')


def test_a_client_told_resumed_ignores_an_older_paused():
    client, applied = heard()
    for line in (notice("paused", 3), notice("resumed", 5), notice("paused", 4)):
        client.take(line)
    assert "k" not in client.paused, "stays resumed"
    assert [m.kind for m in applied] == ["paused", "resumed"], "the stale pause unseen"
    client.take(notice("chat", 5, text="again"))  # not newer: the same number is not news
    client.take(notice("paused", 1, table="other"))  # another table has its own order
    client.take(notice("paused", 6))  # a newer pause is a pause
    assert [(m.table, m.n) for m in applied[2:]] == [("other", 1), ("k", 6)]
    assert client.paused == {"k", "other"}


def test_a_server_numbers_its_notices_strictly_upwards_and_after_what_it_relayed():
    stopped = NoticeClock(now=lambda: 7_000_000)  # a clock standing still (or set back)
    numbers = [stopped.next() for _ in range(3)]
    assert numbers == [7000, 7001, 7002]
    stopped.seen(10**9)  # another server's number this one relayed
    stopped.seen(True)  # (not a number: nothing)
    assert stopped.next() == 10**9 + 1


async def test_a_table_s_notices_come_with_growing_numbers(tmp_path):
    async with running_server(tmp_path) as server:
        reader, writer = await raw(server.socket_path, "ann")
        writer.write(pr.client_line(pr.CreateTable("t", "1v1", (0,))))
        writer.write(pr.client_line(pr.TakeSeat("t", 0)))
        await answers(reader, "seated")
        writer.write(pr.client_line(pr.Start("t")))
        writer.write(pr.client_line(pr.Chat("t", "hello")))
        got = [m for m in await answers(reader, timeout=1.0) if m["type"] == "notice"]
        assert [m["kind"] for m in got] == ["started", "chat"]
        assert 0 <= got[0]["n"] < got[1]["n"], got
        writer.close()


def test_the_relay_keeps_the_owner_s_numbers_and_a_stale_pause_stays_unseen(tmp_path):
    """bea plays at a table another server owns. While Redis was away the owner queued
    "paused"; her own server said "paused", then "resumed" once Redis was back; the
    owner's queued pause arrives only then, its number older than that "resumed": her
    server drops it (her client would too: the test above). A newer notice is relayed
    with the owner's own number, and her server's next word comes after it."""
    from weathering_tui.net.server import Server

    server = Server(tmp_path / "b", tmp_path / "b.sock", store=RedisStore("redis://localhost"))
    client, applied = heard()

    class Bea:
        closed = False
        tables: dict = {}

        def send(self, line):
            self.last = json.loads(line)
            client.take(line)

    bea = Bea()
    server.cluster.relay.local_by_id[server.cluster.relay.token(bea)] = bea
    server.cluster.relay.forwarded["k"] = {bea}
    owner = NoticeClock()
    queued = notice("paused", owner.next())  # the owner's word, stamped as Redis went
    server.cluster.relay.tell("k", "k", "paused")  # her own server's
    server.cluster.relay.tell("k", "k", "resumed")
    server.cluster.relay.deliver(server.cluster.relay.token(bea), queued.rstrip(b"\n"))
    assert bea.last["kind"] == "resumed", "her server drops it: older than its own word"
    assert [m.kind for m in applied] == ["paused", "resumed"]
    assert "k" not in client.paused, "she still sees the table running"
    ahead = owner.next() + 10**6  # the owner's clock a second ahead of this server's
    server.cluster.relay.deliver(
        server.cluster.relay.token(bea), notice("chat", ahead, text="hi").rstrip(b"\n")
    )
    assert bea.last["n"] == ahead and applied[-1].kind == "chat"
    server.cluster.relay.tell("k", "k", "moving")  # this server's next word comes after it
    assert bea.last["n"] > ahead and applied[-1].kind == "moving"
