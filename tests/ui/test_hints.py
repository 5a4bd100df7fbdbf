"""The hint dialog as a player uses it: h shows the expert's moves with their range;
Escape while it thinks stops the computation itself, not only the dialog."""

import asyncio
import threading

from weathering_tui.bots import hints, search
from weathering_tui.tui.app import WeatheringApp
from weathering_tui.tui.screens.choice import ChoiceModal
from weathering_tui.tui.widgets import KeyBar

from .games import at, human_turn, setup_for, wait_for


def counting_rollouts(monkeypatch, delay=0.0):
    """Rollouts counted, the hint computed in the screen's thread (not in a child
    process, which these counters could not see: tests/test_hint_child.py)."""
    from weathering_tui.bots import hint_child, hints

    monkeypatch.setattr(hint_child, "hints_apart", hints.hints)
    calls = []
    real = search.rollout

    def counted(*args, **kwargs):
        calls.append(threading.current_thread().name)
        if delay:
            threading.Event().wait(delay)
        return real(*args, **kwargs)

    monkeypatch.setattr(search, "rollout", counted)
    return calls


async def test_h_shows_the_expert_s_moves_with_their_range(monkeypatch):
    calls = counting_rollouts(monkeypatch)
    game = at(setup_for("2v1", seed=11), human_turn(0, 1))
    app = WeatheringApp(lang="en", saves_dir=None, game=game, pace=0, autosave=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("h")
        await wait_for(pilot, lambda: isinstance(app.screen, ChoiceModal))
        labels = [label for label, _ in app.screen.options]
        assert labels and "% wins (" in labels[0] and "–" in labels[0], labels
        assert all("% wins (" in label or "left behind after" in label for label in labels)
        legal = app.session.view().legal
        assert all(action in legal for _, action in app.screen.options)
        assert calls


async def test_escape_while_the_expert_thinks_stops_its_work(monkeypatch):
    calls = counting_rollouts(monkeypatch, delay=0.02)
    game = at(setup_for("2v1", seed=11), human_turn(0, 1))
    app = WeatheringApp(lang="en", saves_dir=None, game=game, pace=0, autosave=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("h")
        await wait_for(pilot, lambda: len(calls) >= 2)
        footer = app.screen.query_one(KeyBar)
        # what the screen does meanwhile, how far it is, and how to stop it
        assert "thinking" in str(footer.render()) and "Esc" in str(footer.render())
        await wait_for(pilot, lambda: "% done" in str(footer.render()))
        screen, at_escape = app.screen, []
        cancel = screen.action_cancel_hint

        def counted_cancel():  # the rollouts done when Escape is handled, however late
            at_escape.append(len(calls))
            cancel()

        screen.action_cancel_hint = counted_cancel
        await pilot.press("escape")
        await pilot.pause()
        assert "thinking" not in str(footer.render())
        assert "p" in footer.drawn and "e" in footer.drawn  # the turn's keys again
        # The count stops growing (a loaded machine may take a while to finish the
        # rollout under way: the thinking runs at low priority): at most the rollout
        # under way when Escape was handled, and one more starting (without the stop it
        # goes on to its whole budget, 20 ms apart).
        after_escape, quiet = len(calls), 0
        for _ in range(600):
            await asyncio.sleep(0.05)
            quiet = quiet + 1 if len(calls) == after_escape else 0
            after_escape = len(calls)
            if quiet >= 30:  # 1.5 s without a rollout
                break
        assert quiet >= 30, "the search went on after Escape"
        assert at_escape and after_escape <= at_escape[0] + 2, (after_escape, at_escape)
        assert after_escape < hints.BUDGET, "it stopped before its whole budget"
        assert not isinstance(app.screen, ChoiceModal)
        # and h works again afterwards
        await pilot.press("h")
        await wait_for(pilot, lambda: isinstance(app.screen, ChoiceModal), seconds=60)


async def test_h_in_a_decision_s_dialog_gives_hints_and_escape_brings_the_dialog_back(monkeypatch):
    """Not only on one's turn: in the mulligan's dialog (as in a cancel-or-not, a
    discard…) h asks the expert; its moves are that dialog's; Escape on the hints gives
    the decision back, and a hint chosen is played."""
    calls = counting_rollouts(monkeypatch)
    game = at(
        setup_for("1v1", seed=5),
        lambda s: s.pending.kind == "mulligan" and s.pending.seat == 0,
    )
    app = WeatheringApp(lang="en", saves_dir=None, game=game, pace=0, autosave=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, ChoiceModal))
        decision = app.screen
        assert "h: hint" in decision._keys()
        await pilot.press("h")
        await wait_for(
            pilot, lambda: isinstance(app.screen, ChoiceModal) and app.screen is not decision
        )
        assert app.screen.title_text == "The expert's hints"
        # the decision is named: a card alone could read as "play it"
        assert app.screen.body.startswith(decision.title_text + "\n")
        legal = app.session.view().legal
        assert all(action in legal for _, action in app.screen.options)
        assert calls, "the expert searched the mulligan"
        await pilot.press("escape")
        await wait_for(
            pilot,
            lambda: isinstance(app.screen, ChoiceModal) and "hint" not in app.screen.title_text,
        )
        assert app.session.view().pending.kind == "mulligan"
        await pilot.press("h")
        await wait_for(
            pilot,
            lambda: (
                isinstance(app.screen, ChoiceModal)
                and app.screen.title_text == "The expert's hints"
            ),
        )
        chosen = app.screen.options[0][1]
        version = app.session.view().version
        await pilot.press("enter")
        await wait_for(pilot, lambda: app.session.view().version > version)
        # (the bot's own mulligan may follow at once)
        mine = [a for a in app.session.game.actions if getattr(a, "seat", None) == 0]
        assert mine[-1] == chosen


async def test_escape_kills_the_hint_s_process(monkeypatch):
    """As a player uses it: the hint thinks in a child process (its own session, so its
    own scheduling group at the lowest share); Escape kills it."""
    from helpers import record_children

    from weathering_tui.bots import hint_child

    children = record_children(monkeypatch, hint_child)
    game = at(setup_for("2v1", seed=11), human_turn(0, 1))
    app = WeatheringApp(lang="en", saves_dir=None, game=game, pace=0, autosave=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("h")
        await wait_for(pilot, lambda: children)
        await pilot.press("escape")
        await wait_for(pilot, lambda: children[0].poll() is not None, seconds=5)
        assert children[0].returncode == -9  # killed, not finished
        await pilot.press("h")  # a whole hint through the child
        await wait_for(pilot, lambda: isinstance(app.screen, ChoiceModal), seconds=60)
        assert len(children) == 2 and children[1].returncode == 0
        labels = [label for label, _ in app.screen.options]
        assert all("% wins (" in label for label in labels[:2])  # the finalists, confirmed
        assert all("% wins (" in label or "left behind after" in label for label in labels)


async def test_a_move_the_search_dropped_early_shows_no_share():
    """A move left behind after two deals may have won both: '100 % wins' under an 80 %
    would read as a better move. It says it was left behind instead, and how early."""
    from weathering_tui.bots.hints import Hint, Hints

    game = at(setup_for("2v1", seed=11), human_turn(0, 1))
    app = WeatheringApp(lang="en", saves_dir=None, game=game, pace=0, autosave=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = app.screen
        view = app.session.view()
        first, second = view.legal[0], view.legal[1]
        screen.hinting = screen.busy = True
        screen.hinter.show(
            view, Hints([Hint(first, 0.8, 0.6, 0.9, 20), Hint(second, 1.0, 0.2, 1.0, 2)])
        )
        await wait_for(pilot, lambda: isinstance(app.screen, ChoiceModal))
        await pilot.pause()
        labels = [label for label, _ in app.screen.options]
        assert "80% wins (60–90)" in labels[0]
        assert labels[1].endswith("left behind after 2 simulated games") and "%" not in labels[1]


def test_a_hint_on_ones_turn_says_the_pa_its_move_spends():
    """Three hints are three choices, not a plan: each says its PA, so that a player
    sees when the first would leave too few for the second (a play-test)."""
    from weathering_tui.engine import actions as act
    from weathering_tui.engine import view_for
    from weathering_tui.words import Tr
    from weathering_tui.words.describe import move_with_cost

    game = at(setup_for("2v1", seed=11), human_turn(0, 1))
    view = view_for(game.state, 0)
    tr = Tr("en")
    const = tr.content.constants
    spends = {act.PutInDeck: const.deck_cost, act.Draw: const.draw_cost}
    kinds = set()
    for action in view.legal:
        label = move_with_cost(tr, view, action)
        if isinstance(action, act.PlayCard):
            cost = view.costs[action.card]
        elif isinstance(action, act.StoreAp):
            assert label == tr("move.store", n=action.amount), label  # its PA said once
            continue
        else:
            cost = spends.get(type(action), 0)
        assert label.endswith(f" · {cost} PA") == bool(cost), (action, label)
        kinds.add(type(action))
    assert {act.PlayCard, act.PutInDeck, act.Draw, act.Discard} <= kinds


def test_a_hint_says_why_moves_of_the_same_share_are_ranked():
    """Shares that read the same ("97 %, 97 %") with the moves told apart: the dialog
    says the first leaves the gauge better; tied moves: that they are alike; otherwise
    nothing (a play-test read 97/97/97 with no word as a contradiction)."""
    from weathering_tui.bots.hints import Hint, Hints
    from weathering_tui.words import Tr
    from weathering_tui.words.describe import hint_notes

    tr = Tr("en")

    def found(wins, tied=False):
        return Hints([Hint(i, w, w - 0.05, w + 0.05, 96) for i, w in enumerate(wins)], tied)

    assert hint_notes(tr, None, found([0.971, 0.968])) == [tr("hint.same_share")]
    assert hint_notes(tr, None, found([0.971, 0.968], tied=True)) == [tr("hint.tied")]
    assert hint_notes(tr, None, found([0.80, 0.60])) == []
    assert hint_notes(tr, None, found([0.80])) == []
