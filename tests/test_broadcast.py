"""The views a table sends, built for all seats at once (`net.broadcast`), are exactly
each seat's own view: a client that lays each message over the view it has holds
`view_for(state, seat)` after every change, whichever messages it missed."""

from __future__ import annotations

import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from weathering_tui.engine import SPECTATOR, Setup, apply, legal_actions, new_game, view_for
from weathering_tui.engine.wire import view_to_data, wire_converter
from weathering_tui.net import server_messages as msg
from weathering_tui.net.broadcast import Frame, LogCache, seat_view


class Client:
    """One connection's copy of the view, kept as `net.client` keeps it."""

    def __init__(self, seat: int):
        self.seat = seat
        self.sent = None
        self.data: dict | None = None
        self.log: list = []

    def receive(self, state, frame, cache, answered=()):
        text, sent = seat_view(state, self.seat, answered, frame, self.sent, cache, None)
        if text is None:
            return False
        line = msg.ViewHead(table="t", version=state.version).line(text, len(self.log), True)
        message = msg.parse_server(line)
        assert isinstance(message, msg.ViewMessage)
        view = message.view
        self.log.extend(view.pop("log"))
        self.data = view if self.sent is None else {**self.data, **view}
        self.sent = sent
        return True


def expected(state, seat, answered=()):
    data = view_to_data(view_for(state, seat, answered=answered))
    log = data.pop("log")
    return json.loads(json.dumps(data)), json.loads(json.dumps(log))


def check(state, clients, frame, cache, listening):
    for client in clients:
        if not listening(client):
            continue
        client.receive(state, frame, cache)
        data, log = expected(state, client.seat)
        assert client.data == data
        assert client.log == log


@settings(max_examples=8, deadline=None)
@given(st.integers(0, 10**6), st.sampled_from(["1v1", "2v1", "3v2"]), st.integers(0, 3))
def test_every_client_holds_its_own_view(seed, configuration, deaf):
    """A random game: every seat and a spectator follow it; one of them misses every
    `deaf`-th change (it catches up from an older frame)."""
    rng = random.Random(seed)
    state = new_game(Setup.standard(configuration, seed=seed))
    seats = list(range(len(state.players))) + [SPECTATOR]
    clients = [Client(s) for s in seats]
    cache, frame, step = LogCache(), None, 0
    while state.pending is not None and step < 150:
        frame = Frame(state, frame)
        step += 1

        def listening(client, step=step):
            return not (deaf and client is clients[0] and step % (deaf + 1))

        check(state, clients, frame, cache, listening)
        seat = state.pending.seat
        apply(state, rng.choice(legal_actions(state, seat) or legal_actions(state, 0)))
    frame = Frame(state, frame)
    check(state, clients, frame, cache, lambda _: True)


def test_nothing_new_sends_nothing():
    state = new_game(Setup.standard("2v1", seed=3))
    cache = LogCache()
    frame = Frame(state)
    client = Client(1)
    assert client.receive(state, frame, cache)
    assert not client.receive(state, Frame(state, frame), cache)  # the same state again


def test_a_secret_entry_reaches_its_audience_alone():
    """The cached JSON of a secret log entry: whole for its audience, stripped for the
    others, whichever seat asks first."""
    state = new_game(Setup.standard("2v1", seed=9))
    secret = next(i for i, e in enumerate(state.log) if e.secret)
    entry = state.log[secret]
    outsider = next(s for s in range(3) if s not in entry.audience)
    converter = wire_converter()
    for first in (outsider, entry.audience[0]):
        cache = LogCache()
        cache.json(state.log, secret, first)
        for seat in (outsider, entry.audience[0]):
            seen = json.loads(cache.json(state.log, secret, seat))
            want = converter.unstructure(view_for(state, seat).log[secret])
            assert seen == json.loads(json.dumps(want))
    assert json.loads(cache.json(state.log, secret, outsider))["secret"] == {}


def test_after_an_undo_another_move_is_what_every_client_reads():
    """An undo rebuilds the log: the table's cache must not serve the JSON of the move
    taken back for the different move made in its place (a stale line in every log)."""
    from weathering_tui.engine import actions as act
    from weathering_tui.engine import can_undo, undo

    state = new_game(Setup.standard("1v1", seed=4))
    while not (state.pending.kind == "turn" and state.pending.seat == 0):
        apply(state, legal_actions(state, state.pending.seat)[0])
    cache = LogCache()
    clients = [Client(s) for s in (0, 1, SPECTATOR)]
    check(state, clients, Frame(state), cache, lambda _: True)
    legal = legal_actions(state, 0)
    stored = next(a for a in legal if isinstance(a, act.StoreAp))
    other = next(a for a in legal if not isinstance(a, act.StoreAp | act.EndTurn))
    apply(state, stored)
    check(state, clients, Frame(state), cache, lambda _: True)
    assert can_undo(state, 0)
    state = undo(state, 0)
    for client in clients:  # after an undo the table sends every view whole again
        client.sent, client.log = None, []
    apply(state, other)
    check(state, clients, Frame(state), cache, lambda _: True)
