"""The Textual app: screens over a Session; the engine is the only one that changes the game."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from textual import events
from textual._time import get_time  # the clock of events' `time`
from textual.app import App
from textual.binding import Binding

from ..storage.savemeta import list_saves
from ..words import Tr
from .screens.choice import typed_before_shown
from .screens.title import TitleScreen
from .screens.too_small import TooSmallScreen

if TYPE_CHECKING:
    from ..engine import Setup
    from ..play.session import GameSession as Session
    from ..storage.savefile import SavedGame

# The engine, the rules files and the game screens load on first use, so that the title
# screen appears about as fast as an empty Textual app.

MIN_SIZE = (80, 24)


class WeatheringApp(App[None]):
    TITLE = "Weathering"
    BINDINGS = [
        Binding("ctrl+c,ctrl+q", "quit", show=False, priority=True),
    ]
    ENABLE_COMMAND_PALETTE = False
    end_back = "end.back"  # what Enter does on the end screen, in words

    def __init__(
        self,
        lang: str = "fr",
        saves_dir: Path | None = Path("saves"),
        setup: Setup | None = None,
        load: Path | None = None,
        game: SavedGame | None = None,
        new_defaults: tuple | None = None,
        pace: float = 0.6,
        autosave: bool = True,
        now=None,
        replay: tuple | None = None,
        learn: bool = False,
    ):
        super().__init__()
        self.tr = Tr(lang)
        self.saves_dir = saves_dir
        self.initial_setup = setup
        self.initial_load = load
        self.initial_game = game
        self.new_defaults = new_defaults or ("2v1", 1, None)
        self.pace = pace
        self.autosave = autosave
        self.now = now  # tests pin the clock for stable snapshots
        self.initial_replay = replay  # (saved game, after N actions, seat)
        self.initial_learn = learn
        self.session: Session | None = None
        self.goodbye: str | None = None  # what to print after the screen closes
        self._too_small: TooSmallScreen | None = None

    @property
    def content(self):
        return self.tr.content

    deaf_until = 0.0  # keys made before this (Textual's clock) are for a screen now gone

    def deafen(self, seconds: float = 0.0) -> None:
        """Drop the keys typed until now, and for `seconds` more: a shared screen that
        closes hands the keyboard to someone who has not seen what comes next (a second
        Enter on the privacy screen played the next player's card; an opponent's number
        pressed as the reaction prompt ran out chose in the actor's next dialog)."""
        self.deaf_until = get_time() + seconds

    async def on_event(self, event) -> None:
        """Keys typed ahead never answer a dialog that was not on screen when they were
        typed (`typed_before_shown`); everything else goes on as Textual does it."""
        typed_ahead = (
            isinstance(event, events.Key)
            and not event.is_forwarded
            and bool(self._screen_stack)
            and (typed_before_shown(self.screen, event) or event.time < self.deaf_until)
        )
        if not typed_ahead:
            await super().on_event(event)

    # ------------------------------------------------------------ start

    def on_mount(self) -> None:
        if self.few_colors():
            # 8 or 16 colours (TERM=xterm, no COLORTERM): the default theme's borders and
            # muted text came out bright black or black on black, and many 8-colour
            # palettes draw those as black: the panes had no edges. The terminal's own
            # ANSI palette shows them.
            self.theme = "ansi-dark"
        self.start_screens()

    def few_colors(self) -> bool:
        """The terminal shows 16 colours at most (WEATHERING_COLORS=16 says so too)."""
        import os

        if os.environ.get("WEATHERING_COLORS") == "16":
            return True
        if self.is_headless:  # tests and benches draw no terminal: the same theme anywhere
            return False
        return self.console.color_system in ("standard", "windows")

    def start_screens(self) -> None:
        """The first screens (a subclass puts its own: Textual runs every class's
        on_mount, so this is the method to override)."""
        self.push_screen(TitleScreen())
        if self.initial_setup is not None:
            self.start_game(self.initial_setup)
        elif self.initial_load is not None:
            self.load_game(self.initial_load)
        elif self.initial_game is not None:
            self._play(self.initial_game)
        elif self.initial_replay is not None:
            self.open_replay(*self.initial_replay, standalone=True)
        elif self.initial_learn:
            self.start_learning()
        self.check_size()

    def on_resize(self, event) -> None:
        # The app's own size follows a moment later: ask once the screens have it.
        self.set_timer(0.05, self.check_size)

    def check_size(self) -> None:
        """Below 80×24 the "too small" message covers whatever screen is up, and goes
        when the terminal grows back (the screen under it is as it was)."""
        width, height = self.size
        small = width < MIN_SIZE[0] or height < MIN_SIZE[1]
        message = self.tr("small", w=width, h=height, then=self.tr(self._small_note()))
        shown = self._too_small is not None and self._too_small in self.screen_stack
        if small and not shown:
            self._too_small = TooSmallScreen(message)
            self.push_screen(self._too_small)
        elif small:
            self._too_small.set_message(message)
            if self.screen is not self._too_small:  # another screen came over it
                self._too_small = TooSmallScreen(message)
                self.push_screen(self._too_small)
        else:
            self._drop_too_small()

    def _small_note(self) -> str:
        """What q does under the "too small" message, for the screen under it: a game at
        this terminal is saved, a seat at a table waits a while for its player, and the
        title, the lobby, a lesson or a replay have nothing to save."""
        session = next(
            (s.session for s in reversed(self.screen_stack) if hasattr(s, "session")), None
        )
        if session is None or session.over:
            return "small.quit"
        if session.can.table:
            return "small.table"
        return "small.saved" if session.can.save and session.autosave else "small.quit"

    def push_screen(self, screen, *args, **kwargs):
        """Any screen, and while the terminal is too small the message over it again: a
        prompt that opens by itself (a reaction, the server's word) goes under it."""
        pushed = super().push_screen(screen, *args, **kwargs)
        if self._too_small is not None and not isinstance(screen, TooSmallScreen):
            self.call_after_refresh(self.check_size)
        return pushed

    @property
    def too_small(self) -> bool:
        return self._too_small is not None

    def _drop_too_small(self) -> None:
        """The message goes; one left under another screen (a dialog that opened while
        the terminal was small came over it) shows nothing, and goes when uncovered."""
        from textual import events

        screen, self._too_small = self._too_small, None
        for under in self.screen_stack:
            if under is self.screen:
                continue
            if isinstance(under, TooSmallScreen):
                under.fade()
            else:
                # Under the message when the terminal grew, it missed the resize: a
                # dialog that came meanwhile showed it through, still at the small size
                # (a play-test saw its borders a column short).
                under.post_message(events.Resize(self.size, self.size))
        if screen is not None and self.screen is screen:
            screen.dismiss(None)

    # ------------------------------------------------------------ navigation

    def saves(self):
        if self.saves_dir is None:
            return []
        return list_saves(self.saves_dir)

    def open_new_game(self) -> None:
        from .screens.new_game import NewGameScreen

        config, humans, seed = self.new_defaults
        self.push_screen(NewGameScreen(config, humans, seed))

    def open_load(self) -> None:
        from .screens.load import LoadScreen

        self.push_screen(LoadScreen(self.tr, self.saves()))

    @property
    def dialog_keys(self) -> str:
        """The hint under a game's dialogs: help, log and quit work there too."""
        if self.session is None:
            return ""
        return self.tr("dialog.keys.learn" if self.session.can.guide else "dialog.keys")

    def action_open_help(self) -> None:
        self.open_help()

    def action_open_log(self) -> None:
        from ..play.session import table_notices
        from .screens.log import LogScreen
        from .widgets import log_lines

        if self.session is not None and not isinstance(self.screen, LogScreen):
            view = self.session.view()
            lines = log_lines(self.tr, view, table_notices(self.session))
            self.push_screen(LogScreen(self.tr("log"), lines))

    def action_open_events(self) -> None:
        """Every active event with its whole text (the pane has room for names only),
        from the game screen (v) or over one of its dialogs."""
        from .screens.log import LogScreen

        if self.session is None or isinstance(self.screen, LogScreen):
            return
        view, tr = self.session.view(), self.tr
        lines = []
        for event in view.active_events:
            turns = tr("events.turns", n=event.remaining)
            lines += [f"{tr.event(event.event)} · {turns}", f"  {tr.event_text(event.event)}", ""]
        self.push_screen(LogScreen(tr("events"), lines or [tr("events.none")]))

    def open_help(self, tab: str = "keys") -> None:
        from .screens.help import HelpScreen

        self.push_screen(HelpScreen(self.tr, tab))

    def _play(self, game: SavedGame | None, session=None, loaded_from: Path | None = None) -> None:
        from ..play import LocalSession
        from .screens.game import GameScreen

        self._drop_too_small()  # the game goes under it again below (check_size)
        if session is None:
            session = LocalSession(
                game, self.saves_dir, autosave=self.autosave, loaded_from=loaded_from
            )
        self.session = session
        if session.can.save:
            session.autosave_now()
        while len(self.screen_stack) > 2:
            self.pop_screen()
        self.push_screen(GameScreen(self.session, self.tr, pace=self.pace))
        self.call_after_refresh(self.check_size)

    def replay_save(self, path: Path) -> None:
        """Step through a save (a table's save with its journal too)."""
        from ..storage.journal import read_table
        from ..storage.savefile import SaveError

        try:
            game = read_table(path)
        except SaveError as exc:
            self.notify(exc.text(self.tr.lang), severity="error", timeout=8, markup=False)
            return
        self.open_replay(game)

    def open_replay(
        self,
        game: SavedGame,
        at: int | None = None,
        seat: int | None = None,
        standalone: bool = False,
    ) -> None:
        """Step through `game` (a finished game opens at its end, every hand still shut)."""
        from ..play.replay import ReplaySession, Timeline
        from .screens.replay import ReplayScreen

        session = ReplaySession(Timeline(game, self.content), at, seat)
        self.push_screen(ReplayScreen(session, self.tr, standalone))

    def start_learning(self) -> None:
        """The guided first game (rules/learn.toml)."""
        from ..play.learn import LearnSession, ScriptError, load_script

        try:
            script = load_script()
        except ScriptError as exc:
            self.notify(self.tr("learn.broken", problem=exc), severity="error", markup=False)
            return
        self._play(None, LearnSession(script, self.content))

    def start_game(self, setup: Setup) -> None:
        from ..storage.savefile import SavedGame

        now = self.now() if self.now else None
        self._play(SavedGame.start(setup, self.content, now=now))

    def load_game(self, path: Path) -> None:
        from ..storage.savefile import SaveError, read_save

        try:
            game = read_save(path, self.content)
        except SaveError as exc:
            self.notify(exc.text(self.tr.lang), severity="error", timeout=8, markup=False)
            return
        self._play(game, loaded_from=path)

    def show_end(self, session: Session) -> None:
        from .screens.end import EndScreen

        self.switch_screen(EndScreen(session, self.tr))

    def back_to_title(self) -> None:
        self.session = None
        while len(self.screen_stack) > 2:
            self.pop_screen()
        self.switch_screen(TitleScreen())

    async def action_quit(self) -> None:
        """Quitting from anywhere saves a game in progress and says how to resume it."""
        if self.session is not None:
            self.quit_game(self.session)
        else:
            self.exit()

    async def action_leave(self) -> None:
        """q in a game's dialog: what q on the game screen does."""
        await self.action_quit()

    def quit_game(self, session: Session) -> None:
        if session.can.guide:  # q leaves the lesson (never saved) for the title
            self.back_to_title()
            return
        message = None
        if session.can.save and session.autosave and not session.over:
            session.autosave_now()
            if session.save_problem is None:
                from ..storage.savemeta import resume_command

                # Always the language played in: the command may be typed in another
                # shell, whose locale would choose another one.
                command = resume_command(session.save_name, session.saves_dir, self.tr.lang)
                message = self.tr("quit.saved", command=command)
            else:
                message = self.tr("save.failed", problem=session.save_problem)
        # Printed by the command line as plain text once the screen is gone: a console
        # message would be wrapped at the terminal's width, breaking the command in two.
        self.goodbye = message
        self.exit()
