"""The game screen's flow (play/flow.py) without an app: whole games played through it,
answering each thing it says to show as the screen does."""

from __future__ import annotations

import attrs

from weathering_tui.bots import BOTS
from weathering_tui.engine import SeatSetup, Setup
from weathering_tui.play import flow as fl
from weathering_tui.play.learn import LearnSession, load_script
from weathering_tui.play.local import LocalSession
from weathering_tui.storage.savefile import SavedGame


def two_players_and_a_bot(seed: int = 3) -> LocalSession:
    seats = (SeatSetup("ecologist", human=True), SeatSetup("ecologist", human=True))
    seats += (SeatSetup("lobbyist"),)
    return LocalSession(SavedGame.start(Setup("2v1", seats, seed=seed)), None, autosave=False)


def play_through(flow: fl.Flow, limit: int = 5000) -> list[fl.Show]:
    """Everything the flow shows until the end, each answered as the screen would: a
    dialog closed, the keyboard taken, nobody speaking up, a bot's pace over, a move
    (the lesson's, else a heuristic bot's choice from the seat's own view)."""
    session = flow.session
    player = BOTS["heuristic"](seed=1)
    shown: list[fl.Show] = []
    for _ in range(limit):
        show = flow.next()
        assert show is not None, shown[-3:]  # each thing shown was answered
        shown.append(show)
        if show.holds:
            assert flow.busy and flow.next() is None  # it waits for the answer
        if isinstance(show, fl.End):
            return shown
        if isinstance(show, fl.BotTurn):
            step = flow.bot_step()
            if step.think is not None:
                flow.bot_chose(session.bot_choose(step.think))
        elif isinstance(show, fl.Privacy):
            flow.seat_taken(show.seat)
        elif isinstance(show, fl.Window):
            flow.spoke(None)
        elif isinstance(show, fl.Decide | fl.Turn):
            view = session.view()
            assert view.seat == show.seat and view.pending.seat == show.seat
            expected = session.expected() if session.can.guide else None
            session.play(expected or player.choose(view))
        else:
            flow.closed()
    raise AssertionError(f"no end after {limit} steps: {shown[-5:]}")


def kinds(shown: list[fl.Show]) -> list[str]:
    return [type(show).__name__ for show in shown]


def test_a_game_at_one_terminal_goes_to_its_end_through_the_flow():
    session = two_players_and_a_bot()
    shown = play_through(fl.Flow(session, pace=0.6))
    assert session.over
    said = kinds(shown)
    assert said.count("Transition") == 1 and said.count("End") == 1
    for kind in ("Privacy", "Recap", "Turn", "Decide", "BotTurn"):
        assert kind in said, kind
    assert "LessonShow" not in said and "Ending" not in said
    # A bot's turn is paced; its answer to a reaction window is not (it would tell).
    assert {show.delay for show in shown if isinstance(show, fl.BotTurn)} == {0, 0.6}
    # The recap comes first, then that player's own decision.
    for before, after in zip(shown, shown[1:], strict=False):
        if isinstance(before, fl.Recap):
            assert isinstance(after, fl.Turn | fl.Decide | fl.Privacy), after
            assert before.entries


def test_no_pace_no_bot_waits():
    shown = play_through(fl.Flow(two_players_and_a_bot(seed=4), pace=0))
    assert {show.delay for show in shown if isinstance(show, fl.BotTurn)} == {0}


def test_a_recap_tells_only_what_the_words_say():
    silent = fl.Flow(two_players_and_a_bot(), pace=0, tells=lambda view, entry: False)
    assert "Recap" not in kinds(play_through(silent))


def test_the_guided_game_lessons_first_then_what_comes_after_then_the_final_check():
    script = load_script()
    session = LearnSession(attrs.evolve(script, moves=script.moves[:6]))
    shown = play_through(fl.Flow(session, pace=0, lang="en"))
    said = kinds(shown)
    assert said[0] == "LessonShow"
    assert "Recap" not in said  # the lessons say what happens
    assert said.count("LearnDone") == 1
    assert said[-2:] == ["Ending", "End"]
    title, text = session.ending("en") or ("", "")
    assert shown[-2] == fl.Ending(title, text)
    lessons = [show.lesson for show in shown if isinstance(show, fl.LessonShow)]
    assert lessons == list(script.lessons[: len(lessons)])  # each once, in order
    assert len(lessons) >= 2


def test_a_dialog_of_the_screens_own_holds_the_flow_until_it_is_answered():
    flow = fl.Flow(two_players_and_a_bot(), pace=0)
    flow.hold()  # a key's dialog, a hint being thought
    assert flow.next() is None and flow.next() is None
    flow.closed()
    assert flow.next() is not None


def test_every_searching_bot_a_save_may_name_thinks_off_the_event_loop():
    """A save may name any bot of `BOTS`: each that searches (the expert, pimc, ismcts)
    thinks off the event loop (`think`), the others move at once (a save with `pimc`
    froze the screen while it thought)."""
    for kind, thinks in (("expert", True), ("pimc", True), ("ismcts", True), ("random", False)):
        seats = (SeatSetup("ecologist", human=True), SeatSetup("lobbyist", bot=kind))
        game = SavedGame.start(Setup("1v1", seats, seed=4))
        flow = fl.Flow(LocalSession(game, None, autosave=False))
        for _ in range(50):
            if isinstance(flow.next(), fl.BotTurn):
                break
            flow.session.play(BOTS["heuristic"](seed=1).choose(flow.session.view()))
        step = flow.bot_step()
        assert (step.think is not None) == thinks, kind
