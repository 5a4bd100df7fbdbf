"""The server's messages to its clients (README § Protocol), typed like the client's
(net/protocol.py): the server builds each one from its class (the validators check
every field as it is made) and a client checks each line it receives against the same
classes (`parse_server`), so a client can be written from these two files and the
README alone. Views travel as the engine's View through the wire converter
(`engine.wire`), their log as the seat's own log entries since `log_start`."""

from __future__ import annotations

import json

import attrs

from .protocol import ProtocolError, dumps
from .user_text import clean


def _of(kind):
    return attrs.validators.instance_of(kind)


def _seq_of(kind):
    return attrs.validators.deep_iterable(_of(kind), _of((list, tuple)))


@attrs.frozen
class Welcome:
    protocol: int = attrs.field(validator=_of(int))
    identity: str = attrs.field(validator=_of(str))
    name: str = attrs.field(validator=_of(str))
    seats: list = attrs.field(validator=_seq_of(dict))  # {"table", "seat"} per seat held


@attrs.frozen
class TablesList:
    tables: list = attrs.field(validator=_seq_of(dict))  # each: net/table_summary.py


@attrs.frozen
class WaitingRoom:
    table: str = attrs.field(validator=_of(str))
    summary: dict = attrs.field(validator=_of(dict))


@attrs.frozen
class ViewMessage:
    table: str = attrs.field(validator=_of(str))
    version: int = attrs.field(validator=_of(int))
    log_start: int = attrs.field(validator=_of(int))
    view: dict = attrs.field(validator=_of(dict))  # the View's fields; "log": entries
    # Seconds left in the open reaction window (the same for every seat); 0: none open.
    window: float = attrs.field(default=0.0, validator=_of(float))
    # The whole view, or (False) only the View fields that changed since the last one
    # sent on this connection: the client lays them over the view it has.
    full: bool = attrs.field(default=True, validator=_of(bool))
    # The table lets its players ask the expert for hints (a table option).
    hints: bool = attrs.field(default=False, validator=_of(bool))


@attrs.frozen
class ErrorMessage:
    code: str = attrs.field(validator=_of(str))
    message: str = attrs.field(validator=_of(str))
    params: dict | None = attrs.field(default=None, validator=attrs.validators.optional(_of(dict)))


def _order(number) -> None:
    if type(number) is not int or number < 0:
        raise TypeError("a notice's n is an integer >= 0")


@attrs.frozen
class Notice:
    table: str = attrs.field(validator=_of(str))
    kind: str = attrs.field(
        validator=attrs.validators.in_(
            (
                *("chat", "away", "left", "back", "bot", "started"),
                *("paused", "moving", "resumed", "undo", "expired", "decide_soon", "slow"),
            )
        )
    )
    name: str = attrs.field(validator=_of(str))
    # Its order: a client applies only a notice newer than the last one it applied for
    # that table (net/notice_order.py); an int >= 0, never a bool.
    n: int = attrs.field(validator=lambda _, __, n: _order(n))
    # chat: the line; expired (a table nobody joined, gone): the seconds it waited;
    # decide_soon: the seconds left before a bot plays for a player who has not decided
    text: str = attrs.field(default="", validator=_of(str))
    # The log's length the notice comes after (an undo: after what stands); none: after
    # the log as the client has it.
    at: int | None = attrs.field(default=None, validator=attrs.validators.optional(_of(int)))


@attrs.frozen
class TableNamed:
    """A message that names one table and says nothing more."""

    table: str = attrs.field(validator=_of(str))


@attrs.frozen
class Created(TableNamed):
    """The table asked for is made (its maker sits down next)."""


@attrs.frozen
class Watching(TableNamed):
    """This connection watches the table (its views follow)."""


@attrs.frozen
class TakenOver(TableNamed):
    """The same identity sat down at this table on another connection: not ours now."""


@attrs.frozen
class Seated:
    table: str = attrs.field(validator=_of(str))
    seat: int = attrs.field(validator=_of(int))
    # the table is this identity's: it starts it (said at every sitting, so that a newer
    # connection or one back after a restart knows it as the first one did)
    creator: bool = attrs.field(default=False, validator=_of(bool))


ServerMessage = (
    Welcome | TablesList | WaitingRoom | ViewMessage | ErrorMessage | Notice | TableNamed | Seated
)
SERVER_TYPES: dict[str, type[ServerMessage]] = {
    "welcome": Welcome,
    "tables": TablesList,
    "table": WaitingRoom,
    "view": ViewMessage,
    "error": ErrorMessage,
    "notice": Notice,
    "created": Created,
    "watching": Watching,
    "taken_over": TakenOver,
    "seated": Seated,
}
SERVER_NAMES = {cls: name for name, cls in SERVER_TYPES.items()}


def message_type(message: ServerMessage) -> str:
    """A server message's `type` on the wire."""
    return SERVER_NAMES[type(message)]


def message_data(message: ServerMessage) -> dict:
    """A server message as its line's JSON object: its fields (those that are None left
    out) and its `type`."""
    data = {k: v for k, v in attrs.asdict(message, recurse=False).items() if v is not None}
    data["type"] = message_type(message)
    return data


def server_line(message_type: str, /, **fields) -> bytes:
    """One server message, built (and so checked) from its class, as a JSON line."""
    return dumps(message_data(SERVER_TYPES[message_type](**fields))) + b"\n"


class ViewHead:
    """The fields of one change's view messages that are the same for every seat (the
    table, its version, the window's time, hints), checked by `ViewMessage` once; each
    seat's line adds its view, where its log starts and whether the view is whole."""

    def __init__(self, table: str, version: int, window: float = 0.0, hints: bool = False):
        ViewMessage(table, version, 0, {}, window, True, hints)  # (a wrong type raises)
        self.rest = dumps(
            {"table": table, "version": version, "window": window, "hints": hints, "type": "view"}
        )[1:]

    def line(self, view_json: bytes, log_start: int, full: bool) -> bytes:
        if type(log_start) is not int or type(full) is not bool:
            raise TypeError("log_start is an int and full a bool")
        start = b',"log_start":%d,"full":%s,' % (log_start, b"true" if full else b"false")
        return b'{"view":' + view_json + start + self.rest + b"\n"


def parse_server(line: bytes) -> ServerMessage:
    """A line from the server, checked against its message class: the message (an
    instance of that class; `message_type` says its type), or ProtocolError."""
    try:
        data = json.loads(line)
    except (ValueError, UnicodeDecodeError, RecursionError):
        raise ProtocolError("not_json", "a message is one JSON object per line") from None
    if not isinstance(data, dict) or data.get("type") not in SERVER_TYPES:
        raise ProtocolError("bad_message", "not a server message")
    fields = {k: v for k, v in data.items() if k != "type"}
    try:
        return SERVER_TYPES[data["type"]](**fields)
    except (TypeError, ValueError) as exc:
        raise ProtocolError("bad_message", clean(str(exc), 120)) from None
