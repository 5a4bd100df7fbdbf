"""A saved game at one terminal: the game at one terminal (`TerminalGame`), its
autosave after every move, named saves, and a leaving player's seat handed to a bot
(no Textual)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import TYPE_CHECKING

import attrs

from ..bots import BOTS, bot_seed
from ..storage.savefile import SavedGame, autosave_name, write_save
from .terminal import TerminalGame


class LocalSession(TerminalGame):
    """`TerminalGame` with its saves: autosaved after every change, saved by name on
    ctrl+s (no saving without a saves folder), and ctrl+b."""

    def __init__(
        self,
        game: SavedGame,
        saves_dir: Path | None,
        autosave: bool = True,
        loaded_from: Path | None = None,
    ):
        super().__init__(game)
        self.saves_dir = saves_dir
        self.autosave = autosave and saves_dir is not None
        self.can = attrs.evolve(TerminalGame.can, hand_over=True, save=saves_dir is not None)
        self.save_name = self._autosave_to_follow(loaded_from)
        self.last_saved: str | None = None
        self.save_problem: str | None = None

    @property
    def updated(self) -> str:
        return self.game.updated

    def changed(self) -> None:
        self.autosave_now()

    def hand_over(self, seat: int) -> None:
        """A human who leaves: a heuristic bot plays the seat from now on (and after a load)."""
        self.bots[seat] = BOTS["heuristic"](seed=bot_seed(self.game.setup.seed, seat))
        self.game.handed.append(seat)
        if self.humans:
            self.last_human = None
        if self.autosave:
            self.save()

    # ------------------------------------------------------------ saving

    def autosave_now(self) -> None:
        """Autosave; a failing disk never stops the game, it is reported once instead."""
        if not self.autosave:
            return
        try:
            self.save()
            self.save_problem = None
        except OSError as exc:
            self.save_problem = f"{exc.filename or self.saves_dir}: {exc.strerror or exc}"

    def _autosave_to_follow(self, loaded_from: Path | None) -> str:
        """The file the autosave writes: the game's own (autosave-<created>), or the
        autosave it was loaded from. A game loaded from a named save goes on in a new
        one (autosave-<created>-2, -3…) when its own holds another moment: loading an
        earlier save replaced the later game at once (a play-test)."""
        name = autosave_name(self.game)
        if loaded_from is None or self.saves_dir is None:
            return name
        if re.fullmatch(re.escape(name) + r"(-\d+)?", loaded_from.stem):
            return loaded_from.stem
        n = 1
        while self._another_moment_at(name if n == 1 else f"{name}-{n}"):
            n += 1
        return name if n == 1 else f"{name}-{n}"

    def _another_moment_at(self, name: str) -> bool:
        """Whether save `name` exists and holds anything but this game at this moment."""
        from ..storage.savemeta import SaveError, read_document

        path = self._save_path(name)
        if not path.exists():
            return False
        try:
            meta = read_document(path).get("meta")
        except SaveError:
            return True
        return not (
            isinstance(meta, dict)
            and meta.get("created") == self.game.created
            and meta.get("updated") == self.game.updated
            and meta.get("action_count") == len(self.game.actions)
        )

    def other_game_at(self, name: str) -> bool:
        """Whether save `name` exists and holds something other than this game (another
        game, or a file that cannot be read): saving there would replace it."""
        from ..storage.savemeta import SaveError, read_document

        path = self._save_path(name)
        if not path.exists():
            return False
        try:
            document = read_document(path)
        except SaveError:
            return True
        meta, setup = document.get("meta"), document.get("setup")
        return not (
            isinstance(meta, dict)
            and isinstance(setup, dict)
            and meta.get("created") == self.game.created
            and setup.get("seed") == self.game.setup.seed
        )

    def _save_path(self, name: str) -> Path:
        assert self.saves_dir is not None, "a game without a saves folder offers no saving"
        return self.saves_dir / f"{name}.toml"

    def save(self, name: str | None = None) -> Path:
        """Autosave, or a named save (which the autosave keeps following)."""
        path = write_save(self._save_path(name or self.save_name), self.game)
        self.last_saved = self.game.updated
        return path


if TYPE_CHECKING:  # the type checker holds it to the parts its `can` names
    from . import session as ss

    def _parts(
        s: LocalSession,
    ) -> tuple[
        ss.Session,
        ss.Playing,
        ss.Undoing,
        ss.Hinting,
        ss.BotsHere,
        ss.SharedTerminal,
        ss.HandOver,
        ss.Saving,
        ss.Replayable,
    ]:
        return s, s, s, s, s, s, s, s, s
