"""The Session contract (play/session.py), held against every session: a saved game at
one terminal, a seat at a table server, a replay and the guided first game. Each one has
the core and exactly the parts its `can` names (no member that only says "not here"),
and what its `can` says it does, it does."""

from __future__ import annotations

import asyncio
import contextlib
import time

import attrs
import pytest
from helpers import pass_step, running_server

from weathering_tui.engine import IllegalAction, SeatSetup, Setup, View
from weathering_tui.engine import actions as act
from weathering_tui.play.learn import LearnSession, load_script
from weathering_tui.play.local import LocalSession
from weathering_tui.play.remote import RemoteSession
from weathering_tui.play.replay import ReplaySession, Timeline
from weathering_tui.play.session import PARTS, Capabilities, Session, Step
from weathering_tui.storage.savefile import SavedGame, read_save

KINDS = ["local", "remote", "replay", "lesson"]
TABLE = "contract"


def two_players_and_a_bot() -> SavedGame:
    seats = (SeatSetup("ecologist", human=True), SeatSetup("ecologist", human=True))
    seats += (SeatSetup("lobbyist"),)
    return SavedGame.start(Setup("2v1", seats, seed=3))


def played(steps: int) -> SavedGame:
    """A game at one terminal after its first `steps` steps."""
    session = LocalSession(two_players_and_a_bot(), None, autosave=False)
    for _ in range(steps):
        step = session.next_step()
        if not pass_step(session, step) and step.kind in ("turn", "decide"):
            session.play(choice(session, session.view()))
    return session.game


@contextlib.asynccontextmanager
async def opened(kind: str, tmp_path):
    """The session of that kind, at the start of a game (a replay: at its end)."""
    if kind == "local":
        yield LocalSession(two_players_and_a_bot(), tmp_path)
    elif kind == "lesson":  # the script cut short: the game goes on freely after it
        script = load_script()
        yield LearnSession(attrs.evolve(script, moves=script.moves[:4]))
    elif kind == "replay":
        yield ReplaySession(Timeline(played(12)))
    else:
        async with running_server(tmp_path) as server, seated(server.socket_path) as session:
            yield session


@contextlib.asynccontextmanager
async def seated(socket_path, hints: bool = True):
    """Ann's seat at a 1v1 table against the server's bot, started, its first view come."""
    from weathering_tui.net import protocol as pr
    from weathering_tui.net import server_messages as msg
    from weathering_tui.net.client import TableClient

    box: list[RemoteSession] = []
    early: list = []  # notices before the first view (the session starts with it)

    def heard(message) -> None:
        if isinstance(message, msg.Notice) and message.table == TABLE:
            early.append(message)
        while box and early:
            notice = early.pop(0)
            box[0].notice(notice.text or notice.kind, at=notice.at)
        if isinstance(message, msg.ErrorMessage) and box:
            box[0].refused()

    client = TableClient(socket_path, identity="ann", name="Ann", on_event=heard)
    task = asyncio.create_task(client.run())
    try:
        await asyncio.wait_for(client.connected.wait(), 10)
        client.send(pr.CreateTable(TABLE, "1v1", (0,), seed=3, hints=hints))
        client.take_seat(TABLE, 0)
        await until(lambda: client.seats.get(TABLE) == 0)
        client.send(pr.Start(TABLE))
        await until(lambda: TABLE in client.views)
        box.append(RemoteSession(client, TABLE))
        heard(None)
        yield box[0]
    finally:
        client.close()
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task


async def until(test, limit: float = 10.0) -> None:
    end = time.monotonic() + limit
    while not test():
        assert time.monotonic() < end, "waited too long"
        await asyncio.sleep(0.01)


def choice(session, view: View):
    """The move made for the player: the lesson's; else keep or pass, store a PA on
    one's turn (a move that may be taken back), else the first one offered."""
    if session.can.guide and session.expected() is not None:
        return session.expected()
    legal = view.legal
    for wanted in (
        lambda a: isinstance(a, act.Pass),
        lambda a: isinstance(a, act.ChooseCard) and a.card is None,
        lambda a: isinstance(a, act.StoreAp),
    ):
        found = [a for a in legal if wanted(a)]
        if found:
            return found[0]
    return legal[0]


async def next_decision(session, wanted=("turn", "decide")) -> Step:
    """Play on (bots, privacy screens, the public window, others) until this terminal
    decides."""
    end = time.monotonic() + 20
    while time.monotonic() < end:
        step = session.next_step()
        if step.kind in wanted:
            return step
        if step.kind == "over":
            raise AssertionError("the game ended first")
        if pass_step(session, step):
            continue
        if step.kind == "wait":
            await asyncio.sleep(0.01)
        elif step.kind in ("turn", "decide"):
            session.play(choice(session, session.view()))
    raise AssertionError("no decision came")


async def changed(session, before: View) -> View:
    """The next view (a table's comes from the server)."""
    await until(lambda: session.view() is not before)
    return session.view()


# ---------------------------------------------------------------- what each part does


async def plays(session) -> None:
    step = await next_decision(session)
    before = session.view()
    assert step.seat == before.seat
    session.play(choice(session, before))
    after = await changed(session, before)
    assert after.version > before.version or after.pending != before.pending
    with pytest.raises(IllegalAction):
        session.play(act.StoreAp(after.seat, 99))


async def undoes(session) -> None:
    for _ in range(40):
        await next_decision(session)
        before = session.view()
        session.play(choice(session, before))
        view = await changed(session, before)
        await next_decision(session)
        if session.can_undo():
            break
    else:
        raise AssertionError("no move could be taken back")
    view = session.view()
    session.undo()
    after = await changed(session, view)
    assert (after.hand, after.legal) == (before.hand, before.legal), "as before the move"


async def hints(session) -> None:
    if session.can.guide:  # the lesson leads first: hints come once it is done
        while not session.finished:
            await next_decision(session)
            session.play(choice(session, session.view()))
    await next_decision(session)
    assert session.can_hint(), "the deciding seat may ask"
    view = session.hint_view()
    assert view.seat == session.view().seat and view.legal == session.view().legal


async def has_bots(session) -> None:
    await next_decision(session, wanted=("bot",))
    assert session.is_bot_turn()
    seat = session.deciding_bot()
    assert seat not in session.humans and session.bot_kind(seat)
    before = session.view().version
    assert session.bot_choose(seat) is not None
    session.bot_move()
    assert session.view().version > before


async def shares(session) -> None:
    wanted = ("privacy", "turn", "decide")
    if len(session.humans) < 2:  # one player at this terminal: nobody to hide from
        for _ in range(10):
            assert (await next_decision(session, wanted)).kind != "privacy"
            session.play(choice(session, session.view()))
        return
    seen = []
    while len(set(seen)) < 2:  # each player's hand comes after their privacy screen
        step = await next_decision(session, wanted)
        if step.kind == "privacy":
            assert step.seat != session.last_human, "another player's keyboard"
            seen.append(step.seat)
            session.take_seat(step.seat)
            assert session.view().seat == step.seat == session.last_human
        else:
            session.play(choice(session, session.view()))
    assert session.window_left() == 0 and session.waiting == []


async def hands_over(session) -> None:
    seat = session.viewer
    assert seat in session.humans
    session.hand_over(seat)
    assert seat not in session.humans and session.game.handed == [seat]


async def saves(session) -> None:
    await plays(session)
    assert session.autosave and session.last_saved, "autosaved after the move"
    path = session.save("named")
    assert read_save(path).actions == session.game.actions
    assert not session.other_game_at("named") and session.updated
    assert session.save_problem is None and session.save_name


async def replayable(session) -> None:
    await plays(session)
    game = session.game
    assert Timeline(game).final.version == game.state.version


async def guides(session) -> None:
    await next_decision(session)
    assert session.lesson() is not None, "the first lesson comes before the first move"
    expected = session.expected()
    other = next(a for a in session.view().legal if a != expected)
    with pytest.raises(IllegalAction, match="learn_move"):
        session.play(other)
    assert not session.finished and session.ending("fr") is None


async def at_table(session) -> None:
    assert session.window_left() >= 0
    await until(lambda: session.notices)
    assert session.notices[0][-1] == "started"


async def chats(session) -> None:
    heard = len(session.notices)
    session.chat("bonjour")
    await until(lambda: len(session.notices) > heard)
    assert session.notices[-1][-1] == "bonjour" and session.chat_limit > 0


async def auto_passes(session) -> None:
    assert session.toggle_auto_pass() is True
    assert session.toggle_auto_pass() is False


async def travels(session) -> None:
    end = session.view()
    session.go(0)
    assert session.at == 0 and session.view().version < end.version
    session.turn(1)
    assert 0 < session.at <= session.timeline.length
    session.round(1)
    # Another seat's view: one the replay may show (every seat once the game is over;
    # before, the one human's: tests/test_replay_seats.py), and no other.
    seats = range(len(session.timeline.setup.seats))
    for seat in session.shown:
        assert session.choose_seat(seat) and session.view().seat == seat == session.seat
    for seat in (s for s in seats if s not in session.shown):
        assert not session.choose_seat(seat) and session.view().seat != seat
    assert not session.choose_seat(9)
    assert session.open_hands() is session.over
    assert not session.open


BEHAVIOUR = {
    "play": plays,
    "undo": undoes,
    "hints": hints,
    "bots": has_bots,
    "shared": shares,
    "hand_over": hands_over,
    "save": saves,
    "replay": replayable,
    "guide": guides,
    "table": at_table,
    "chat": chats,
    "auto_pass": auto_passes,
    "travel": travels,
}


def members(part: type) -> set[str]:
    """What a part of the contract declares."""
    return {name for name in vars(part) if not name.startswith("_")}


def test_every_capability_has_its_part_and_its_check():
    names = [f.name for f in attrs.fields(Capabilities)]
    assert names == list(PARTS) == list(BEHAVIOUR)
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        Capabilities().chat = True  # type: ignore[misc]


@pytest.mark.parametrize("kind", KINDS)
async def test_a_session_has_the_core_and_exactly_the_parts_its_can_names(kind, tmp_path):
    async with opened(kind, tmp_path) as session:
        assert isinstance(session, Session)
        assert isinstance(session.can, Capabilities)
        for name, part in PARTS.items():
            has = isinstance(session, part)
            assert has == getattr(session.can, name), (kind, name, "has" if has else "lacks")
        # Not one member of a part it lacks (a stub that answers "not here")
        has = {
            m for name, part in PARTS.items() if getattr(session.can, name) for m in members(part)
        }
        lacks = {m for part in PARTS.values() for m in members(part)} - has - members(Session)
        assert not {m for m in lacks if hasattr(session, m)}, kind
        assert isinstance(session.view(), View) and isinstance(session.over, bool)
        assert session.viewer == session.view().seat


@pytest.mark.parametrize("kind", KINDS)
async def test_what_a_session_can_do_it_does(kind, tmp_path):
    async with opened(kind, tmp_path / "first") as session:
        can = session.can
    for name, check in BEHAVIOUR.items():
        if getattr(can, name):
            async with opened(kind, tmp_path / name) as session:  # each from the start
                try:
                    await check(session)
                except AssertionError as exc:
                    exc.add_note(f"a {kind} session, can.{name}")
                    raise


async def test_what_a_session_cannot_do_here_its_can_says(tmp_path):
    """Some capabilities are the game's: no saves folder, no saving; a table made
    without hints never offers them."""
    assert not LocalSession(two_players_and_a_bot(), None).can.save
    async with (
        running_server(tmp_path) as server,
        seated(server.socket_path, hints=False) as session,
    ):
        assert not session.can.hints
        await next_decision(session)
        assert not session.can_hint()
