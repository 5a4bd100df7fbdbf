# mypy: disable-error-code="empty-body"
"""What the game screen's parts (its keys, game_keys.py, its one base of the project's
own; the shows, game_flow.py, the lessons, game_learn.py, and the hints, game_hints.py,
which it holds) reach of `GameScreen`, declared once for the type checker: its state, its
parts, its app, and its session as the contract's `GameSession`. Only the type checker
imports this module."""

from __future__ import annotations

from textual.screen import Screen
from textual.timer import Timer

from ...engine import IllegalAction, View
from ...engine import actions as act
from ...play.flow import Flow
from ...play.session import GameSession
from ...words import Tr
from ..app import WeatheringApp
from .game_flow import Shows
from .game_hints import Hinter
from .game_learn import Lessons


class GameHost(Screen[None]):
    session: GameSession
    tr: Tr
    pace: float
    selected: int
    busy: bool
    flow: Flow
    hinting: bool
    shows: Shows
    lessons: Lessons
    hinter: Hinter
    _timer: Timer | None

    @property
    def app(self) -> WeatheringApp: ...  # type: ignore[override]

    def view(self) -> View: ...
    def refresh_view(self) -> None: ...
    def advance(self) -> None: ...
    def bot_turn(self) -> bool: ...
    def may_undo(self) -> bool: ...
    def may_hint(self) -> bool: ...
    def play(self, action: act.Action) -> None: ...
    def refuse(self, exc: IllegalAction) -> None: ...
    def window_seconds(self) -> int: ...
    def window_clock(self) -> str: ...
    def _bot_step(self) -> None: ...
    def action_undo(self) -> None: ...
    def action_hint(self) -> None: ...
    def action_log(self, then=None) -> None: ...
