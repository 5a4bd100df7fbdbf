"""The game screen's key table (tui/keymap.py), without an app: which keys apply and
which the footer shows, from a real game's view, and the help and the words it reads."""

from __future__ import annotations

import attrs
from helpers import pass_step

from weathering_tui.engine import SeatSetup, Setup
from weathering_tui.engine import actions as act
from weathering_tui.play.local import LocalSession
from weathering_tui.storage.savefile import SavedGame
from weathering_tui.tui import keymap
from weathering_tui.tui.keymap import KEYS, KeyContext
from weathering_tui.words import HELP_KEYS, LANGS, STRINGS

TURN = ("play", "deck", "discard", "draw", "trade", "store", "power", "end")


def at_my_turn(bots: bool = True) -> LocalSession:
    """A 1v1 at one terminal (the Lobbyiste a bot), mulligans kept, the Écolo to play."""
    seats = (SeatSetup("ecologist", human=True), SeatSetup("lobbyist", human=not bots))
    session = LocalSession(SavedGame.start(Setup("1v1", seats, seed=5)), None, autosave=False)
    for _ in range(50):
        step = session.next_step()
        if step.kind == "turn" and step.seat == 0:
            return session
        if not pass_step(session, step):
            view = session.view()
            keep = [a for a in view.legal if isinstance(a, act.ChooseCard) and a.card is None]
            session.play(keep[0] if keep else view.legal[0])
    raise AssertionError("the Écolo's turn never came")


def words(ctx: KeyContext) -> dict[str, str]:
    return dict(keymap.footer(ctx, lambda key: key))


def test_each_key_is_bound_once_and_named_in_both_languages():
    bound = [name for key in KEYS for name in key.keys.split(",")]
    assert len(bound) == len(set(bound))
    footer = [key.footer for key in KEYS if key.footer]
    assert len(footer) == len(set(footer))
    for lang in LANGS:
        for key in KEYS:
            for label in (key.label, key.at_table):
                assert not label or label in STRINGS[lang], (lang, label)


def test_the_help_lists_the_keys_in_the_tables_order():
    names = list(dict.fromkeys(key.name for key in KEYS))
    for lang in LANGS:
        assert set(HELP_KEYS[lang]) <= set(names), lang  # no line for a key that is gone
        assert keymap.help_lines(HELP_KEYS[lang]) == list(HELP_KEYS[lang].values())
        order = [name for name in names if name in HELP_KEYS[lang]]
        assert order == list(HELP_KEYS[lang]), lang
    # every key the footer shows is explained in the help
    assert {key.name for key in KEYS if key.footer} <= set(HELP_KEYS["en"])


def test_on_my_turn_the_turns_keys_apply_and_the_footer_shows_what_the_rules_allow():
    session = at_my_turn()
    ctx = KeyContext(session)
    assert ctx.my_turn and not ctx.bot_turn
    view = session.view()
    for name in TURN:
        assert keymap.enabled(name, ctx), name
    shown = words(ctx)
    assert ("d" in shown) == any(isinstance(a, act.Draw) for a in view.legal)
    assert ("e" in shown) == any(isinstance(a, act.EndTurn) for a in view.legal)
    assert ("p" in shown) == view.hand[0].playable
    assert "?" in shown and "q" in shown and "␣" not in shown
    assert shown["q"] == "key.quit"
    assert not keymap.enabled("skip", ctx)
    assert keymap.enabled("select", ctx) and keymap.enabled("quit", ctx)


def test_busy_the_turns_keys_and_undo_wait():
    session = at_my_turn()
    assert "u" in words(KeyContext(session))  # (the turn's first draws can be taken back)
    busy = KeyContext(session, busy=True)
    assert not any(keymap.enabled(name, busy) for name in (*TURN, "undo", "hint"))
    assert set(words(busy)) == {"?", "q"}


def test_undo_is_offered_only_when_a_move_can_be_taken_back():
    session = at_my_turn()
    assert KeyContext(session).may_undo and "u" in words(KeyContext(session))
    session.play(next(a for a in session.view().legal if isinstance(a, act.EndTurn)))
    ctx = KeyContext(session)  # the bot's turn: nothing of this seat's to take back
    assert not ctx.may_undo and "u" not in words(ctx)
    assert keymap.enabled("undo", ctx)  # pressed anyway, it says why not


def test_a_bot_to_play_offers_space_and_no_turn_key():
    session = at_my_turn()
    session.play(next(a for a in session.view().legal if isinstance(a, act.EndTurn)))
    while not session.is_bot_turn():
        session.play(session.view().legal[0])
    ctx = KeyContext(session)
    assert ctx.bot_turn and keymap.enabled("skip", ctx) and "␣" in words(ctx)
    assert not any(keymap.enabled(name, ctx) for name in TURN)


def test_what_the_session_can_do_decides_its_keys():
    session = at_my_turn()
    ctx = KeyContext(session)
    for name in ("save", "chat", "auto_pass"):
        assert not keymap.enabled(name, ctx), name
    assert keymap.enabled("hand_over", ctx)
    session.can = attrs.evolve(session.can, table=True, chat=True, save=True)
    ctx = KeyContext(session)
    assert keymap.enabled("chat", ctx) and keymap.enabled("save", ctx)
    assert words(ctx)["q"] == "key.tables" and "m" in words(ctx)


def test_an_action_of_no_key_here_is_left_to_the_app():
    ctx = KeyContext(at_my_turn())
    assert keymap.enabled("toggle_dark", ctx) and not keymap.offered("toggle_dark", ctx)
