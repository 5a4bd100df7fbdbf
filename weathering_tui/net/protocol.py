"""The table protocol: newline-delimited JSON over a Unix socket (README § Protocol).

Every message is one JSON object on one line, at most `MAX_LINE` bytes, with a `type`.
Client messages are structured through the project's converter with unknown keys
refused, so a message of the wrong shape never reaches the tables. Views and actions
travel in the engine's own form (`engine.wire`). The server's messages to its clients are in
net/server_messages.py.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import Union

import attrs
import cattrs
import orjson
from cattrs.strategies import configure_tagged_union

from ..content import configuration_ids
from ..engine import wire
from ..engine.actions import Action
from .user_text import (  # noqa: F401 - the protocol's names for them
    FILLERS,
    NAME_MAX,
    clean,
    clean_name,
    table_name_problem,
)

PROTOCOL = 1
MAX_LINE = 64 * 1024
MAX_ITEMS = 64  # items of one list or object in a client message
MAX_NODES = 2048  # values in one client message, all told
CHAT_MAX = 200
CODE_MAX = 16
CONFIGURATIONS = configuration_ids()
BOT_KINDS = ("random", "heuristic", "expert")


def default_socket() -> Path:
    """Where `serve` listens and `join` connects without --socket (one user's own)."""
    runtime = os.environ.get("XDG_RUNTIME_DIR")
    base = Path(runtime) if runtime else Path("/tmp")
    return base / f"weathering-{os.getuid()}.sock"


class ProtocolError(Exception):
    """A message that cannot be accepted; `code` says why (sent back as an error)."""

    def __init__(self, code: str, detail: str = "", params: dict | None = None):
        super().__init__(code, detail)
        self.code = code
        self.detail = detail
        self.params = params or {}  # an illegal action's refusal parameters


def _text(limit: int):
    return attrs.validators.and_(
        attrs.validators.instance_of(str), attrs.validators.max_len(limit * 4)
    )


# ------------------------------------------------------------ client -> server


@attrs.frozen
class Hello:
    protocol: int
    client: str = attrs.field(default="", validator=_text(40))
    # Only a peer running as the server's own user may speak for another identity
    # (the SSH front door, tests); anyone else is the user its uid says.
    identity: str | None = attrs.field(default=None)
    name: str | None = attrs.field(default=None)
    # Where an SSH player comes from (their network), said by the door: keys cost
    # nothing, so the door's strangers make tables per network, not per key.
    origin: str | None = attrs.field(default=None)


@attrs.frozen
class ListTables:
    pass


@attrs.frozen
class CreateTable:
    name: str = attrs.field(validator=_text(NAME_MAX))
    configuration: str = attrs.field(validator=attrs.validators.in_(CONFIGURATIONS))
    open_seats: tuple[int, ...] = ()  # seats kept for human players; the others are bots
    bots: str = attrs.field(default="heuristic", validator=attrs.validators.in_(BOT_KINDS))
    code: str = attrs.field(default="", validator=_text(CODE_MAX))
    seed: int | None = None
    events: bool = True
    start_when_full: bool = False  # start by itself once every open seat is taken
    hints: bool = False  # its players may ask the expert for hints (h)


@attrs.frozen
class TakeSeat:
    table: str = attrs.field(validator=_text(NAME_MAX))
    seat: int
    code: str = attrs.field(default="", validator=_text(CODE_MAX))


@attrs.frozen
class Spectate:
    table: str = attrs.field(validator=_text(NAME_MAX))
    code: str = attrs.field(default="", validator=_text(CODE_MAX))


@attrs.frozen
class Start:
    table: str = attrs.field(validator=_text(NAME_MAX))


@attrs.frozen
class Act:
    table: str = attrs.field(validator=_text(NAME_MAX))
    version: int
    action: dict


@attrs.frozen
class Undo:
    """Take back one's last move (the engine's rule), on the view of `version`."""

    table: str = attrs.field(validator=_text(NAME_MAX))
    version: int


@attrs.frozen
class Chat:
    table: str = attrs.field(validator=_text(NAME_MAX))
    text: str = attrs.field(validator=_text(CHAT_MAX))


@attrs.frozen
class Leave:
    table: str = attrs.field(validator=_text(NAME_MAX))


@attrs.frozen
class Options:
    auto_pass: bool = False  # pass by myself in reaction windows where I cannot cancel


ClientMessage = Union[  # noqa: UP007 - cattrs needs a runtime Union object
    Hello, ListTables, CreateTable, TakeSeat, Spectate, Start, Act, Undo, Chat, Leave, Options
]
CLIENT_TYPES = {
    Hello: "hello",
    ListTables: "list_tables",
    CreateTable: "create_table",
    TakeSeat: "take_seat",
    Spectate: "spectate",
    Start: "start",
    Act: "act",
    Undo: "undo",
    Chat: "chat",
    Leave: "leave",
    Options: "options",
}


def _converter() -> cattrs.Converter:
    """The wire converter made strict for untrusted input (actions included)."""
    converter = wire.new_wire_converter(strict=True)
    configure_tagged_union(
        ClientMessage, converter, tag_name="type", tag_generator=CLIENT_TYPES.__getitem__
    )
    return converter


CONVERTER = _converter()


def parse_client(line: bytes) -> object:
    """One client line into a message, or ProtocolError (never anything else)."""
    if len(line) > MAX_LINE:
        raise ProtocolError("too_long", f"a message is at most {MAX_LINE} bytes")
    try:
        data = json.loads(line)
    except (ValueError, UnicodeDecodeError, RecursionError):
        raise ProtocolError("not_json", "a message is one JSON object per line") from None
    if not isinstance(data, dict):
        raise ProtocolError("not_json", "a message is one JSON object per line")
    if not _small(data):
        raise ProtocolError("bad_message", f"at most {MAX_ITEMS} items a list, {MAX_NODES} in all")
    if not _unicode(data):
        # JSON may escape half of a UTF-16 pair ("\ud800"): no Unicode text holds one, and
        # a reply that named it could not be encoded (a hostile review: the connection's
        # task died with a traceback in the server's log, thousands a second)
        raise ProtocolError("bad_message", "a string holds a lone surrogate: not Unicode text")
    try:
        # A Union is a form, not a class: mypy cannot match it to `type[T]` (cattrs can).
        return CONVERTER.structure(data, ClientMessage)  # type: ignore[arg-type]
    except (cattrs.BaseValidationError, ValueError, TypeError, KeyError) as exc:
        raise ProtocolError("bad_message", _first_line(exc)) from None
    except RecursionError:
        raise ProtocolError("bad_message", "nested too deeply") from None


def _small(data) -> bool:
    """Few enough values to check: no message needs more, and checking a line of 16,000
    empty lists took the event loop a third of a second (measured by a hostile review)."""
    stack, nodes = [data], 0
    while stack:
        value = stack.pop()
        nodes += 1
        if nodes > MAX_NODES:
            return False
        if isinstance(value, dict):
            items = list(value.values())
        elif isinstance(value, list):
            items = value
        else:
            continue
        if len(items) > MAX_ITEMS:
            return False
        stack.extend(items)
    return True


_SURROGATE = re.compile("[\ud800-\udfff]")


def _unicode(data) -> bool:
    """Every string of the message, keys included, is Unicode text (no lone surrogate)."""
    stack = [data]
    while stack:
        value = stack.pop()
        if isinstance(value, str):
            if _SURROGATE.search(value):
                return False
        elif isinstance(value, dict):
            stack.extend(value.keys())
            stack.extend(value.values())
        elif isinstance(value, list):
            stack.extend(value)
    return True


def _first_line(exc: BaseException) -> str:
    try:
        lines = cattrs.transform_error(exc)
    except Exception:  # noqa: BLE001 - any failure to describe is still a bad message
        lines = [str(exc)]
    return clean(lines[0] if lines else "wrong shape", 120)


def dumps(value) -> bytes:
    """Compact UTF-8 JSON, as `json.dumps(ensure_ascii=False)` writes it (keys that
    are not strings become strings there too). orjson: encoding views is most of what
    a busy server does (one per seat per change)."""
    try:
        return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS)
    except TypeError:  # what orjson refuses (an integer beyond 64 bits), json writes
        text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
        return text.encode("utf-8", "replace")  # (a lone surrogate: never a crash)


def client_line(message) -> bytes:
    return dumps(CONVERTER.unstructure(message, ClientMessage)) + b"\n"


def action_data(action) -> dict:
    return wire.action_to_data(action)


def parse_action(data: dict):
    """An action a client sent, strictly typed; ProtocolError("bad_action") otherwise."""
    try:
        # A Union is a form, not a class: mypy cannot match it to `type[T]` (cattrs can).
        return CONVERTER.structure(data, Action)  # type: ignore[arg-type]
    except (cattrs.BaseValidationError, ValueError, TypeError, KeyError, RecursionError):
        raise ProtocolError("bad_action", "that is not an action") from None
