"""Every field of every client message, and of every action, with a value of the wrong
JSON type is refused — never converted ("name": 0 is no table "0", true is no seat 1,
null no chat line "None") — and a server that refused it is unchanged."""

import asyncio
import json
import typing

import attrs
import pytest
from helpers import running_server

from weathering_tui.engine import actions as act
from weathering_tui.net import protocol as pr
from weathering_tui.net import server_messages as msg

WRONG = {
    str: [0, 1.5, True, None, [], {}],
    int: ["1", 1.5, True, None, [], {}],
    bool: [1, 0, "true", None, [], {}],
    dict: ["x", 1, True, None, []],
    "tuple": ["12", 1, True, {"a": 1}, [True], ["1"]],
}


def kind_of(annotation) -> object:
    text = str(annotation)
    if "tuple" in text:
        return "tuple"
    for kind in (bool, int, str, dict):
        if annotation in (kind, kind.__name__) or text in (
            kind.__name__,
            f"{kind.__name__} | None",
        ):
            return kind
    raise AssertionError(f"no wrong values for {annotation!r}")


def good(cls) -> dict:
    """A well-typed message of this class (the values need not make sense)."""
    data = {}
    for field in attrs.fields(cls):
        kind = kind_of(field.type)
        data[field.name] = {
            str: "x",
            int: 1,
            bool: True,
            dict: {"kind": "end_turn", "seat": 0},
            "tuple": [0],
        }[kind]
    return data


def wrong_messages():
    for cls, tag in pr.CLIENT_TYPES.items():
        for field in attrs.fields(cls):
            optional = "None" in str(field.type)
            for value in WRONG[kind_of(field.type)]:
                if value is None and optional:
                    continue
                if cls is pr.CreateTable and field.name == "configuration" and value is None:
                    continue
                yield tag, {"type": tag, **good(cls), field.name: value}, field.name


CASES = list(wrong_messages())


def test_every_client_message_field_is_covered():
    covered = {(tag, name) for tag, _, name in CASES}
    every = {(tag, f.name) for cls, tag in pr.CLIENT_TYPES.items() for f in attrs.fields(cls)}
    assert covered == every


@pytest.mark.parametrize(("tag", "data", "field"), CASES, ids=[f"{t}.{f}" for t, _, f in CASES])
def test_a_wrong_type_is_refused_not_converted(tag, data, field):
    with pytest.raises(pr.ProtocolError) as refused:
        pr.parse_client(json.dumps(data).encode())
    assert refused.value.code == "bad_message"


def well_typed(cls) -> dict:
    hints = typing.get_type_hints(cls)
    base = {}
    for f in attrs.fields(cls):
        hint = str(hints[f.name])
        base[f.name] = (
            True
            if hints[f.name] is bool
            else [0]
            if "tuple" in hint
            else 0
            if "int" in hint
            else "x"
        )
    return {"kind": act.ACTION_NAMES[cls], **base}


@pytest.mark.parametrize("cls", list(act.ACTION_NAMES))
def test_a_well_typed_action_is_accepted(cls):
    assert type(pr.parse_action(well_typed(cls))) is cls


def test_well_typed_messages_are_accepted():
    for message in (
        pr.Hello(pr.PROTOCOL, "c", identity="i", name="n"),
        pr.CreateTable("t", "2v1", (0, 1), code="c", seed=3, events=False),
        pr.TakeSeat("t", 1, "c"),
        pr.Act("t", 4, {"kind": "end_turn", "seat": 0}),
        pr.Chat("t", "hi"),
        pr.Options(auto_pass=True),
    ):
        assert pr.parse_client(pr.client_line(message)) == message


def wrong_actions():
    for cls in act.ACTION_NAMES:
        hints = typing.get_type_hints(cls)
        for field in attrs.fields(cls):
            base = well_typed(cls)
            for value in WRONG[kind_of(hints[field.name])]:
                if value is None and "None" in str(hints[field.name]):
                    continue
                yield {**base, field.name: value}


@pytest.mark.parametrize("data", list(wrong_actions()))
def test_an_action_with_a_wrong_type_is_refused(data):
    with pytest.raises(pr.ProtocolError) as refused:
        pr.parse_action(data)
    assert refused.value.code == "bad_action"


async def test_the_server_refuses_them_all_and_is_unchanged(tmp_path):
    async with running_server(tmp_path) as server:
        before = json.dumps(server.lobby.listing())
        answers = []
        for start in range(0, len(CASES), 20):  # a fresh connection before the abuse limit
            reader, writer = await asyncio.open_unix_connection(str(server.socket_path))
            writer.write(pr.client_line(pr.Hello(pr.PROTOCOL, "t")))
            assert b"welcome" in await reader.readline()
            for _, data, _ in CASES[start : start + 20]:
                writer.write(json.dumps(data).encode() + b"\n")
                answer = json.loads(await reader.readline())
                while answer["type"] == "tables":  # the lobby, sent to all when it is due
                    answer = json.loads(await reader.readline())
                answers.append(answer.get("code", answer["type"]))
            writer.close()
            await asyncio.sleep(0.05)
        assert set(answers) == {"bad_message"}, answers
        assert json.dumps(server.lobby.listing()) == before and not server.tables


def test_server_messages_are_typed_both_ways():
    line = msg.server_line("seated", table="t", seat=1)
    assert msg.parse_server(line) == msg.Seated("t", 1)
    for name in ("created", "watching", "taken_over"):  # one class for each type
        message = msg.parse_server(msg.server_line(name, table="t"))
        assert msg.message_type(message) == name and message.table == "t"
        assert msg.message_data(message) == {"type": name, "table": "t"}
    with pytest.raises(TypeError):
        msg.server_line("seated", table="t", seat="1")  # the server cannot send it
    for bad in (
        b'{"type": "seated", "table": "t", "seat": "1"}',
        b'{"type": "seated", "table": "t"}',
        b'{"type": "view", "table": "t", "version": 1, "log_start": 0, "view": [], "x": 1}',
        b'{"type": "mystery"}',
        b"[1, 2]",
        b"not json",
    ):
        with pytest.raises(pr.ProtocolError):
            msg.parse_server(bad)


def test_a_seed_beyond_64_bits_is_still_a_message():
    """orjson refuses integers beyond 64 bits: the json module writes them instead, so
    a client's odd seed reaches the server (which answers it), never a crash."""
    message = pr.CreateTable("t", "1v1", (0,), seed=2**64)
    assert pr.parse_client(pr.client_line(message)).seed == 2**64
    assert pr.dumps({"n": -(2**63) - 1, 1: "a"}) == b'{"n":-9223372036854775809,"1":"a"}'


@pytest.mark.parametrize(
    "data",
    [
        {"type": "create_table", "name": "x", "configuration": "2v1", "open_seats": [[]] * 16000},
        {"type": "chat", "table": "t", "text": [[0] * 60] * 60},  # few per list, many in all
        {"type": "act", "table": "t", "version": 0, "action": {str(i): i for i in range(65)}},
    ],
)
def test_a_message_with_too_many_values_is_refused_before_it_is_checked(data):
    """A hostile review made one 48 KB line cost the event loop 250–360 ms in the schema
    checks: a message is counted first, and one no message needs is refused at once."""
    with pytest.raises(pr.ProtocolError) as refused:
        pr.parse_client(json.dumps(data).encode())
    assert refused.value.code == "bad_message"
    assert f"at most {pr.MAX_ITEMS} items" in refused.value.detail


@pytest.mark.parametrize(
    "line",
    [
        b'{"type":"chat","table":"\\ud800","text":"x"}',  # a table name echoed back
        b'{"type":"chat","table":"t","text":"a\\udfffb"}',
        b'{"type":"hello","protocol":1,"client":"\\ud83d"}',
        b'{"type":"chat","\\ud800":1,"table":"t","text":"x"}',  # in a key
    ],
)
def test_a_lone_surrogate_is_refused_as_not_unicode(line):
    with pytest.raises(pr.ProtocolError) as refused:
        pr.parse_client(line)
    assert refused.value.code == "bad_message" and "surrogate" in refused.value.detail
    assert pr.dumps({"x": "\ud800"}) == b'{"x":"?"}'  # and a reply never fails to encode


async def test_a_lone_surrogate_ends_nothing_and_writes_nothing_to_the_log(tmp_path, capsys):
    """It killed the connection's task with a traceback in the server's output, and a
    peer reconnecting in a loop wrote 3 MB a second there (a hostile review)."""
    async with running_server(tmp_path) as server:
        reader, writer = await asyncio.open_unix_connection(str(server.socket_path))
        writer.write(pr.client_line(pr.Hello(pr.PROTOCOL, "t")))
        assert b"welcome" in await reader.readline()
        writer.write(b'{"type":"chat","table":"\\ud800","text":"x"}\n')
        answer = json.loads(await reader.readline())
        assert answer["type"] == "error" and answer["code"] == "bad_message"
        writer.write(pr.client_line(pr.ListTables()))  # the connection goes on
        answer = json.loads(await reader.readline())
        assert answer["type"] == "tables"
        writer.close()
    out = capsys.readouterr()
    assert "Traceback" not in out.err + out.out and "surrogate" not in out.err + out.out
