"""Hints thought ahead (tui/screens/game_hints.py): once a player has asked for a hint,
each later decision of theirs has its hint thought while they read it, so `h` shows it
at once; a hint whose moment has passed stops working, its process killed; nobody who
never asked pays for one, and a table's processor is never spent on one unasked."""

import asyncio
import threading

from weathering_tui.bots import search
from weathering_tui.tui.app import WeatheringApp
from weathering_tui.tui.screens.choice import ChoiceModal
from weathering_tui.tui.screens.game_hints import Hinter

from .games import at, human_turn, setup_for, wait_for


def rollouts_by_moment(monkeypatch, delay=0.0):
    """The version of the view each rollout searches (the hint computed in the screen's
    thread, where this list sees it: the child's own test is below)."""
    from weathering_tui.bots import hint_child, hints

    monkeypatch.setattr(hint_child, "hints_apart", hints.hints)
    versions = []
    real = search.rollout

    def counted(view, *args, **kwargs):
        versions.append(view.version)
        if delay:
            threading.Event().wait(delay)
        return real(view, *args, **kwargs)

    monkeypatch.setattr(search, "rollout", counted)
    return versions


def a_game():
    return at(setup_for("2v1", seed=11), human_turn(0, 1))


def an_app() -> WeatheringApp:
    """A 2v1 at its human's first turn, no saves."""
    return WeatheringApp(lang="en", saves_dir=None, game=a_game(), pace=0, autosave=False)


async def hint_then_back(pilot, app):
    """h, the hints' dialog, Escape: back on the turn, having asked once."""
    await pilot.press("h")
    await wait_for(pilot, lambda: isinstance(app.screen, ChoiceModal), seconds=60)
    for _ in range(20):  # (an Escape pressed as the dialog mounts, on a loaded machine,
        await pilot.pause()  # was lost: CI once waited 20 s on the dialog)
        await pilot.press("escape")
        if not isinstance(app.screen, ChoiceModal):
            break
        await asyncio.sleep(0.1)
    await wait_for(pilot, lambda: not isinstance(app.screen, ChoiceModal))


async def a_move(pilot, app, key="x"):
    """The selected card discarded (x, once a turn) or put in the deck (b): the turn goes
    on, at a new moment."""
    version = app.session.view().version
    await pilot.press(key)
    await wait_for(pilot, lambda: app.session.view().version > version)
    assert app.session.view().pending.seat == 0, "still this seat's decision"


async def test_after_one_hint_the_next_is_ready_when_asked(monkeypatch):
    versions = rollouts_by_moment(monkeypatch)
    app = an_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await hint_then_back(pilot, app)
        asked = len(versions)
        await pilot.press("h")  # the same moment again: shown, not thought again
        await wait_for(pilot, lambda: isinstance(app.screen, ChoiceModal))
        assert len(versions) == asked
        await pilot.press("escape")
        await wait_for(pilot, lambda: not isinstance(app.screen, ChoiceModal))
        await a_move(pilot, app)
        now = app.session.view().version
        hinter = app.screen.hinter
        # thought without a key pressed, to its end
        await wait_for(
            pilot, lambda: hinter.thought and hinter.thought[-1][0].version == now, seconds=60
        )
        thought = len(versions)
        assert versions.count(now) > 0
        await pilot.press("h")
        await wait_for(pilot, lambda: isinstance(app.screen, ChoiceModal))
        assert len(versions) == thought, "shown at once, not thought again"
        legal = app.session.view().legal
        assert app.screen.options and all(action in legal for _, action in app.screen.options)


async def test_nobody_who_never_asked_pays_for_a_hint(monkeypatch):
    versions = rollouts_by_moment(monkeypatch)
    app = an_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await a_move(pilot, app)
        await asyncio.sleep(1.0)
        assert versions == [] and app.screen.hinter.worker is None


async def test_a_hint_thought_ahead_stops_when_its_moment_passes(monkeypatch):
    """The move undone while the next hint is thought: that hint stops, and the moment
    back has its hint already (no other one starts)."""
    versions = rollouts_by_moment(monkeypatch)
    app = an_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await hint_then_back(pilot, app)
        first = app.session.view().version
        asked = len(versions)
        monkeypatch.setattr(search, "rollout", slowed(search.rollout))  # 20 ms a rollout
        await a_move(pilot, app)
        passed = app.session.view().version
        await wait_for(pilot, lambda: versions.count(passed) >= 2)
        await pilot.press("u")  # before that hint is done (its budget: 750 rollouts)
        await wait_for(pilot, lambda: app.session.view().version == first)
        # No more rollouts for the moment gone (one under way may end).
        count = len(versions)
        for _ in range(30):
            await asyncio.sleep(0.05)
        assert len(versions) <= count + 1, "the hint of a moment gone went on"
        assert versions.count(passed) < 100
        assert versions.count(first) == asked, "the moment back had its hint already"
        await pilot.press("h")
        await wait_for(pilot, lambda: isinstance(app.screen, ChoiceModal))
        assert versions.count(first) == asked


def slowed(rollout):
    def slow(*args, **kwargs):
        threading.Event().wait(0.02)
        return rollout(*args, **kwargs)

    return slow


async def test_the_process_of_a_hint_whose_moment_passed_is_killed(monkeypatch):
    """As a player uses it: each hint thinks in a child process; a move made while the
    next one is thought ahead kills that process."""
    from helpers import record_children

    from weathering_tui.bots import hint_child

    children = record_children(monkeypatch, hint_child)
    app = an_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await hint_then_back(pilot, app)
        assert len(children) == 1 and children[0].returncode == 0
        await a_move(pilot, app)
        await wait_for(pilot, lambda: len(children) == 2)
        await a_move(pilot, app, "b")
        await wait_for(pilot, lambda: children[1].poll() is not None, seconds=5)
        assert children[1].returncode == -9  # killed, not finished


class Place:
    """What a Hinter reads of its screen and session, at a table or at this terminal:
    a seat deciding at a real game's moment."""

    def __init__(self, table):
        from weathering_tui.engine import view_for

        game = a_game()
        self.table_view = view_for(game.state, 0, with_log=False)
        self.can = type("Can", (), {"table": table})()
        self.session = self
        self.hinting = False
        self.started = []

    def view(self):
        return self.table_view

    hint_view = view

    def may_hint(self):
        return True

    def run_worker(self, *args, **kwargs):
        self.started.append(kwargs["name"])


def test_a_table_s_processor_thinks_of_no_hint_unasked():
    """At a table the `join` may run on the server (the SSH door): a hint is thought only
    when asked there. Here, a player who asked gets the next one thought ahead."""
    for table, started in ((True, []), (False, ["hint"])):
        place = Place(table)
        hinter = Hinter(place)
        hinter.asked.add(0)
        hinter.keep_up()
        assert place.started == started, table


async def test_an_undo_back_two_moments_finds_their_hint_kept(monkeypatch):
    """A hint thought for a moment, then another for the next: undo back to the first
    shows its hint at once (only the last one was kept: a play-test's undo thought it
    again)."""
    versions = rollouts_by_moment(monkeypatch)
    app = an_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await hint_then_back(pilot, app)
        hinter = app.screen.hinter
        moments = []
        for key in ("x", "b"):
            await a_move(pilot, app, key)
            now = app.session.view().version
            moments.append(now)
            await wait_for(pilot, lambda now=now: hinter.thought[-1][0].version == now, seconds=60)
        await pilot.press("u")
        await wait_for(pilot, lambda: app.session.view().version == moments[0])
        thought = len(versions)
        await pilot.press("h")
        await wait_for(pilot, lambda: isinstance(app.screen, ChoiceModal))
        assert len(versions) == thought, "shown at once, not thought again"
