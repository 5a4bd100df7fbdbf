"""What a part of the game screen (`Shows`, `Lessons`, `Hinter`) reads of the screen it
belongs to: one place for the forwarding, so that each part's own code is only its job."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ...engine import View
    from ...play.flow import Flow
    from ...play.session import GameSession
    from ...words import Tr
    from ..app import WeatheringApp
    from .game_host import GameHost


class ScreenPart:
    def __init__(self, screen: GameHost):
        self.screen = screen

    @property
    def tr(self) -> Tr:
        return self.screen.tr

    @property
    def session(self) -> GameSession:
        return self.screen.session

    @property
    def app(self) -> WeatheringApp:
        return self.screen.app

    @property
    def flow(self) -> Flow:
        return self.screen.flow

    def view(self) -> View:
        return self.screen.view()
