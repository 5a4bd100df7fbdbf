"""The guided first game (rules/learn.toml, play/learn.py): the script plays through."""

from __future__ import annotations

import pytest

from weathering_tui.engine import IllegalAction, action_key, apply, legal_actions
from weathering_tui.engine import actions as act
from weathering_tui.play.learn import LEARNER, LearnSession, ScriptError, load_script


def play_through(session: LearnSession) -> list:
    """Every lesson as it comes up, with the decision pending then; the learner makes
    each move the lesson expects, bots play the other seats."""
    shown = []
    for _ in range(3000):
        if session.finished:
            return shown
        step = session.next_step()
        if step.kind == "bot":
            session.bot_move()
            continue
        if step.kind == "transition":  # the summary the screen shows once
            continue
        assert step.kind in ("turn", "decide"), step
        lesson = session.lesson()
        if lesson is not None:
            shown.append((lesson, session.state.pending.kind, session.state.phase))
        session.play(session.expected())
    raise AssertionError("the lesson never ended")


def test_the_script_plays_through_with_every_lesson_in_both_languages():
    script = load_script()
    session = LearnSession(script)
    shown = play_through(session)
    assert [lesson for lesson, *_ in shown] == list(script.lessons), "each lesson, in order"
    for lesson in script.lessons:
        for lang in ("fr", "en"):
            assert lesson.title[lang].strip() and lesson.text[lang].strip()
    assert session.finished and session.expected() is None
    while not session.state.over:  # after the learner's last move, only bots play
        assert session.next_step().kind in ("bot", "transition")
        session.bot_move()
    assert session.state.over, "the lesson goes to the game's end"


def test_the_lessons_teach_in_the_order_a_newcomer_needs():
    """The goal at the mulligan; PA at the first turn; the deck before anything else of
    phase 1; cancelling with a cancel among the next moves; the transition at the
    synergy claim; frugality at phase 2's first turn."""
    script = load_script()
    session = LearnSession(script)
    shown = play_through(session)
    kinds = [(kind, phase) for _, kind, phase in shown]
    assert kinds[0] == ("mulligan", 1)
    assert kinds[1] == ("turn", 1)
    moves = script.moves
    deck = next(lesson for lesson, *_ in shown if moves[lesson.at].startswith("put_in_deck"))
    cancel = next(lesson for lesson, *_ in shown if "cancel" in moves[lesson.at : lesson.at + 2])
    synergy = next(lesson for lesson, *_ in shown if moves[lesson.at].startswith("claim"))
    assert deck.at < cancel.at < synergy.at
    after = [
        kind for (lesson, *_), kind in zip(shown, kinds, strict=True) if lesson.at > synergy.at
    ]
    assert after[0] == ("turn", 2), "frugality comes with phase 2"


def test_another_move_is_refused_and_changes_nothing():
    session = LearnSession(load_script())
    session.play(session.expected())  # the mulligan: keep the hand
    while session.next_step().kind == "bot":
        session.bot_move()
    expected = session.expected()
    assert isinstance(expected, act.PlayCard)
    version = session.state.version
    with pytest.raises(IllegalAction) as refusal:
        session.play(act.EndTurn(LEARNER))
    assert refusal.value.code == "learn_move"
    assert session.state.version == version and session.expected() == expected


def test_a_broken_script_is_refused_in_words(tmp_path):
    bad = tmp_path / "learn.toml"
    bad.write_text('moves = ["end_turn"]\n', encoding="utf-8")
    with pytest.raises(ScriptError, match="learn.toml"):
        load_script(bad)


def test_every_scripted_move_is_a_legal_key_where_it_comes():
    script = load_script()
    session = LearnSession(script)
    seen = []
    while not session.finished:
        kind = session.next_step().kind
        if kind == "bot":
            session.bot_move()
            continue
        if kind == "transition":
            continue
        expected = session.expected()
        seen.append(action_key(expected))
        session.play(expected)
    assert seen == list(script.moves)


def test_a_dialog_after_an_option_made_for_the_player_says_why():
    """Ouragan dévastateur at 0 PA: losing a PA is impossible, so the discard was chosen
    for the player; the discard's dialog says so (it used to come unexplained)."""
    from helpers import stack_events, start

    from weathering_tui.engine import view_for
    from weathering_tui.tui.screens.game_flow import _forced_just_now
    from weathering_tui.words import Tr
    from weathering_tui.words.describe import option_words

    state = start("2v1", events=True, mulligan=False)
    stack_events(state, "ouragan_devastateur")
    for player in state.players:
        player.ap = 0
    for seat in range(len(state.players)):
        apply(state, act.ChooseCard(seat, None))
    assert state.pending.seat == 0 and state.pending.kind == "choose_discard"
    view = view_for(state, 0)
    taken = _forced_just_now(view)
    assert taken is not None and taken.data["source"] == "ouragan_devastateur"
    # and which option was taken, in words (a play-test: "la seule possible" named none)
    tr = Tr("fr")
    told = tr(
        "choice.only_one",
        option=option_words(tr, view, "ouragan_devastateur", taken.data["option"], None),
    )
    assert "prise pour vous (défausser 1 carte)" in told, told
    while state.pending.seat == 0:
        apply(state, legal_actions(state, 0)[0])
    assert _forced_just_now(view_for(state, 0)) is None, "said once, for that dialog only"


def test_the_lesson_says_what_a_new_player_missed():
    """Issue #29: unspent PA are kept (turns ended with PA left and no word on it), and a
    discard gives 1 PA in phase 2 — in both languages."""
    texts = [lesson.text for lesson in load_script().lessons]
    for lang, kept, discard in (
        ("fr", "PA que vous n'avez pas dépensés vous restent", "rapporte 1 PA en phase 2"),
        ("en", "PA you did not spend stay yours", "gives 1 PA in phase 2"),
    ):
        said = " ".join(text[lang] for text in texts)
        assert kept in said and discard in said


def finish(session: LearnSession) -> None:
    play_through(session)
    while not session.state.over:
        session.bot_move()


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_the_lesson_ends_with_the_final_check_saying_who_won_and_why(lang):
    """Issue #29 item 7: the lesson ended before the final victory check. It goes to the
    game's end, then says the final gauge, the threshold and the winner, from the game."""
    session = LearnSession(load_script())
    assert session.ending(lang) is None, "nothing to say before the end"
    finish(session)
    outcome = session.state.outcome
    title, text = session.ending(lang)
    assert title.strip()
    assert f"{outcome.hp} PV" in text and "15 PV" in text
    won = outcome.winner == "ecologists"
    assert won, "the guided game is a win for the learner's side"
    verdict = {"fr": "les Écolos gagnent", "en": "the Écolos win"}[lang]
    assert f"{outcome.hp} ≥ 15" in text and verdict in text
    assert "{" not in text


def test_the_lesson_cancels_every_lobbyiste_card_it_can_afford_to():
    """Issue #29 item 7: it let Bétonisation through while Objection was affordable,
    without a word. Wherever a Lobbyiste's card is announced and the learner can cancel,
    the script cancels it, and a lesson comes with the first cancel of each kind."""
    script = load_script()
    session = LearnSession(script)
    cancels, windows = [], 0
    while not session.finished:
        step = session.next_step()
        if step.kind == "bot":
            session.bot_move()
            continue
        if step.kind == "transition":
            continue
        pending = session.state.pending
        expected = session.expected()
        can_cancel = any(isinstance(a, act.Cancel) for a in legal_actions(session.state, LEARNER))
        if pending.kind == "react" and pending.info.get("action") == "play_card" and can_cancel:
            windows += 1
            assert isinstance(expected, act.Cancel), (session.step, pending.info)
            cancels.append((session.step, pending.info["card"].split("#")[0], expected.card))
        session.play(expected)
    assert windows >= 3
    assert ("betonisation", None) in [(card, how) for _, card, how in cancels]
    taught = {lesson.at for lesson in script.lessons}
    first_power = next(step for step, _, how in cancels if how is None)
    first_card = next(step for step, _, how in cancels if how is not None)
    bet = next(step for step, card, _ in cancels if card == "betonisation")
    assert {first_power - 1, bet, first_card} <= taught


def test_the_lesson_over_the_log_says_what_the_log_says_it_covers():
    """The box of "Storing PA, drawing" lies over the log just as Fossilisé cancels the
    learner's card for the deck (a play-test saw the cancel's line hidden): the lesson
    tells it, naming the very card the log names, in both languages."""
    from weathering_tui.content import default_content

    session = LearnSession(load_script())
    while True:
        lesson = session.lesson()
        if lesson is not None and "players" in lesson.points and lesson.at > 16:
            break
        step = session.next_step()
        if step.kind == "bot":
            session.bot_move()
        elif step.kind != "transition":
            session.play(session.expected())
    cancelled = [e for e in session.state.log if e.kind == "revealed"][-1]
    assert session.state.log[-1] is cancelled and cancelled.data["seat"] == LEARNER
    card = default_content().cards[cancelled.data["card"].split("#")[0]]
    assert card.name_fr in lesson.text["fr"] and card.name_en in lesson.text["en"]
