"""The table server's socket (net/listener.py): a peer connecting too fast is turned
away before any work is spent on it, and one turn of the event loop accepts only a few
sockets, so a connect loop cannot hold every table's moves."""

import asyncio
import socket

from weathering_tui.net import listener as ls


def test_a_peer_connects_at_its_rate_after_its_burst_and_the_servers_own_user_freely():
    knocks = ls.Knocks(own_uid=0, rate=4.0, burst=30.0)
    allowed = sum(knocks.allow(1000, 100.0) for _ in range(100))
    assert allowed == 30  # the burst, then nothing at the same instant
    assert not knocks.allow(1000, 100.125)  # half a connection earned in 0.125 s
    assert knocks.allow(1000, 100.25)  # one earned in 0.25 s
    assert not knocks.allow(1000, 100.25)
    assert sum(knocks.allow(1000, 101.25) for _ in range(10)) == 4  # 4 a second
    assert sum(knocks.allow(1001, 101.25) for _ in range(40)) == 30  # each peer its own
    assert all(knocks.allow(0, 100.0) for _ in range(1000))  # the server's own user


async def test_a_turn_serves_a_few_sockets_and_turns_a_fast_peer_away(tmp_path, monkeypatch):
    served: list = []

    async def serve(reader, writer):
        served.append(writer)

    path = tmp_path / "s.sock"
    listener = ls.Listener(path, own_uid=-1, serve=serve, limit=1024)  # (this uid counted)
    listener.start()
    try:
        loop = asyncio.get_running_loop()
        loop.remove_reader(listener.sock.fileno())  # turns taken by hand below
        clients = []
        for _ in range(100):  # queued: nobody accepted them yet
            client = socket.socket(socket.AF_UNIX)
            client.connect(str(path))
            clients.append(client)
        listener._accept()  # one turn
        await asyncio.sleep(0.05)
        assert len(served) == ls.PER_TURN and listener.turned_away == 0
        listener._accept()
        await asyncio.sleep(0.05)
        # the burst's 30 served, then the turn's share turned away (32 accepted in all)
        assert (
            len(served) == ls.BURST
            and listener.turned_away == ls.PER_TURN + ls.TURNED_PER_TURN - 14
        )
        for _ in range(10):
            listener._accept()
        await asyncio.sleep(0.05)
        assert len(served) <= ls.BURST + 1  # (what a second's share earned meanwhile)
        assert listener.turned_away >= 100 - ls.BURST - 1 - 5
        assert listener.turned_away + len(served) == 100
        for client in clients:
            client.close()
    finally:
        listener.close()
        for writer in served:
            writer.close()
