"""A move of the player's cancelled by another player is said at once, not only in the
log (whose few rows at 80×24 a play-test never saw it in)."""

from weathering_tui.engine import Setup, apply, new_game, view_for
from weathering_tui.sim.simulate import play_game
from weathering_tui.tui.screens.game import GameScreen
from weathering_tui.words import Tr


class Told:
    """What `_tell_cancelled` reads of its screen, and the notices it gives."""

    def __init__(self):
        self.tr = Tr("en")
        self._log_seen = None
        self.notices = []

    def notify(self, text, **kwargs):
        if kwargs.get("markup", True):  # as Textual reads a notice: "[/]" raises
            from rich.text import Text

            Text.from_markup(text)
        self.notices.append(text)


def around_a_cancel():
    """Seat 0's views just before and just after a Lobbyiste cancelled its card (a
    seeded game of heuristic bots)."""
    setup = Setup.standard("2v1", seed=2)
    _, actions = play_game(setup, "heuristic")
    state = new_game(setup)
    for action in actions:
        before = {seat: view_for(state, seat) for seat in (0, 1)}
        apply(state, action)
        if any(e.kind == "cancelled" and e.data["seat"] == 0 for e in view_for(state, 0).log):
            return before, {seat: view_for(state, seat) for seat in (0, 1)}
    raise AssertionError("no cancel of seat 0 in that game")


def test_a_move_cancelled_by_another_player_is_said_at_once():
    before, after = around_a_cancel()
    told = Told()
    GameScreen._tell_cancelled(told, before[0])  # the screen's first look: nothing old
    assert told.notices == []
    GameScreen._tell_cancelled(told, after[0])
    assert len(told.notices) == 1
    assert told.notices[0].startswith("Your move is cancelled: ")
    assert "cancels with" in told.notices[0]
    GameScreen._tell_cancelled(told, after[0])  # told once
    assert len(told.notices) == 1


def test_an_ally_s_move_cancelled_is_left_to_the_log():
    before, after = around_a_cancel()
    told = Told()
    GameScreen._tell_cancelled(told, before[1])
    GameScreen._tell_cancelled(told, after[1])
    assert told.notices == []


def test_a_name_that_reads_as_markup_is_said_as_it_is():
    """A player named "[/]" (an SSH user name) cancelled a move: the notice read it as
    markup and the victim's screen died (a hostile review). It is plain text."""
    import attrs

    before, after = around_a_cancel()
    players = tuple(attrs.evolve(p, name=f"[/]{p.name}[b]") for p in after[0].players)
    renamed = attrs.evolve(after[0], players=players)
    told = Told()
    GameScreen._tell_cancelled(told, before[0])
    GameScreen._tell_cancelled(told, renamed)
    assert len(told.notices) == 1 and "[/]" in told.notices[0], told.notices


def test_every_notice_of_the_app_is_plain_text():
    """Notices carry names, save names, card lines: each is given `markup=False`, so a
    name like "[/]" or "[on red]" is shown as typed (every call, read from the sources)."""
    import ast
    from pathlib import Path

    import weathering_tui

    calls = []
    for path in Path(weathering_tui.__file__).parent.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            if isinstance(node, ast.Call) and getattr(node.func, "attr", "") == "notify":
                plain = any(
                    k.arg == "markup" and getattr(k.value, "value", True) is False
                    for k in node.keywords
                )
                calls.append((path.name, node.lineno, plain))
    assert len(calls) > 10
    assert all(plain for *_, plain in calls), [c for c in calls if not c[2]]
