"""A table of the server, the authority of one game: its seats and who holds them, its
game, its bots, a reaction window's answers, what is due, its views, and the object
that keeps its save and journal (`self.saves`, net/table_saves.py; made again from them:
net/table_open.py). No sockets, no clock, no event loop: its driver (`driver.py`) paces
it, and the server sends what it shows.

A table applies an action only for the seat whose decision it is, from the identity
that holds that seat, on the view version it saw; and it says what may be shown: only
what its journal holds (durable before visible).
"""

from __future__ import annotations

import secrets
import time

import attrs

from ..bots import BOTS, Bot, bot_seed
from ..engine import (
    Answers,
    GameState,
    IllegalAction,
    SeatSetup,
    Setup,
    View,
    can_undo,
    sides_of,
    unable_seats,
    view_for,
    window_choices,
    window_seats,
)
from ..engine import actions as act
from ..storage.savefile import SavedGame
from .broadcast import LogCache
from .protocol import ProtocolError, clean_name, parse_action
from .table_saves import TableSaves


@attrs.define
class Seat:
    side: str
    open: bool  # kept for a human player; a closed seat is a bot from the start
    owner: str | None = None  # the identity that took it
    name: str = ""  # the owner's shown name
    away: bool = False  # the owner's connection dropped
    botted: bool = False  # a bot plays it (closed seat, empty at the start, or gone too long)
    slow: bool = False  # botted because its player, here, let a decision's time run out


class Table:
    def __init__(
        self,
        name: str,
        configuration: str,
        open_seats,
        bot_kind: str = "heuristic",
        code: str = "",
        creator: str | None = None,
        seed: int | None = None,
        events: bool = True,
        start_when_full: bool = False,
        hints: bool = False,
        origin: str | None = None,
    ):
        eco, lob = sides_of(configuration)
        sides = ["ecologist"] * eco + ["lobbyist"] * lob
        if any(not 0 <= s < len(sides) for s in open_seats):
            raise ProtocolError("bad_seat", f"{configuration} has seats 0 to {len(sides) - 1}")
        self.name = name
        self.configuration = configuration
        self.seats = [Seat(side, i in set(open_seats)) for i, side in enumerate(sides)]
        self.bot_kind = bot_kind  # the kind of bot on its bot seats
        self.code = code
        self.creator = creator
        self.origin = origin  # where its creator came from (see Hello.origin)
        # Someone other than its creator took a seat before the start: a table nobody
        # joined goes after `serve --unstarted-expiry`, one somebody joined lives longer.
        self.joined = False
        self.listed_round: tuple | None = None  # the round the lobby was last told
        # 64 random bits: a seed small enough to search would give away every hand.
        self.seed = seed if seed is not None else secrets.randbits(63)
        self.events = events
        self.start_when_full = start_when_full
        self.hints = hints  # its players may ask the expert (computed by their own client)
        self.undone_by = ""  # who took a move back (the notice, once it is durable)
        self.undone_at = 0  # the log's length after it: where the notice stands
        # What stood before it (state, durable, answers), until it is saved.
        self.before_undo: tuple[GameState, int, Answers] | None = None
        self.game: SavedGame | None = None
        self.made_at = time.monotonic()
        self.finished_at = float("inf")  # when the game ended (the lobby keeps it a while)
        self.bots: dict[int, Bot] = {}
        self.moved: set[int] = set()  # seats away only because the table changed server
        self.answers = Answers()  # the open reaction window's answers, applied in seat order
        self.log_json = LogCache()  # the log's entries as JSON, built once
        self.saves = TableSaves(self)  # its save and journal, and how far each holds it

    # ------------------------------------------------------------ seats

    @property
    def started(self) -> bool:
        return self.game is not None

    @property
    def over(self) -> bool:
        return self.game is not None and self.game.state.over

    @property
    def playing(self) -> SavedGame:
        """The game, asked of a table started only."""
        assert self.game is not None, "a table's game before it started"
        return self.game

    def mark_finished(self, now: float) -> None:
        """The game's end is durable (or read back) at `now`: the lobby keeps it a while."""
        if self.over and self.finished_at == float("inf"):
            self.finished_at = now

    def seat_of(self, identity: str) -> int | None:
        for i, seat in enumerate(self.seats):
            if seat.owner == identity:
                return i
        return None

    def take(self, identity: str, name: str, index: int, code: str = "") -> int:
        """Take a free open seat, or take one's own seat back. Never another's."""
        if not 0 <= index < len(self.seats):
            raise ProtocolError("bad_seat", f"this table has seats 0 to {len(self.seats) - 1}")
        seat = self.seats[index]
        if seat.owner == identity:
            seat.away = False
            if self.started and seat.botted and seat.open:
                self._unbot(seat, index)
            return index
        if self.code and code != self.code:
            raise ProtocolError("bad_code", "this table needs its join code")
        if not seat.open or seat.owner is not None or (self.started and seat.botted):
            raise ProtocolError("seat_taken", "that seat is not free")
        if self.seat_of(identity) is not None:
            raise ProtocolError("one_seat", "you already hold a seat at this table")
        if self.started:
            raise ProtocolError("started", "the game has started: its seats are taken")
        seat.owner, seat.name = identity, clean_name(name)
        if identity != self.creator:
            self.joined = True
        return index

    def player_away(self, index: int) -> None:
        """The seat's player lost their link, or left: the seat is still theirs."""
        self.seats[index].away = True

    def players_away(self, moved: bool = False) -> list[int]:
        """Back from its save, every player is away until they return (`moved`: only
        because the table changed server). Their seats."""
        seats = [i for i, s in enumerate(self.seats) if s.owner is not None and not s.botted]
        if moved:
            self.moved.update(seats)
        return seats

    def moved_back(self, index: int) -> bool:
        """The player was away only because the table moved here (never gone)."""
        if index not in self.moved:
            return False
        self.moved.discard(index)
        return True

    def release(self, identity: str) -> None:
        """Before the start, a player who leaves frees the seat."""
        index = self.seat_of(identity)
        if index is not None and not self.started:
            seat = self.seats[index]
            seat.owner, seat.name = None, ""

    def full(self) -> bool:
        return all(s.owner is not None for s in self.seats if s.open)

    # ------------------------------------------------------------ the game

    def start(self) -> None:
        """Open seats still empty become bots; then the game is set up and saved."""
        if self.started:
            return
        seats = []
        for seat in self.seats:
            human = seat.owner is not None
            seat.botted = not human
            seats.append(SeatSetup(seat.side, name=seat.name if human else "", human=human))
        setup = Setup(
            self.configuration,
            tuple(attrs.evolve(s, bot=self.bot_kind) for s in seats),
            seed=self.seed,
            events=self.events,
            ask_every_human=True,  # every human opponent is asked: asking tells nothing
        )
        self.game = SavedGame.start(setup)
        self._make_bots()

    def bot_seed(self, index: int) -> int:
        return bot_seed(self.seed, index)

    def _make_bots(self) -> None:
        for index, seat in enumerate(self.seats):
            if seat.botted and index not in self.bots:
                self.bots[index] = BOTS[self.bot_kind](seed=self.bot_seed(index))

    def hand_to_bot(self, index: int, slow: bool = False) -> None:
        """The player has been away too long (`slow`: here, but their decision's time
        ran out): a bot plays the seat until they return (act again)."""
        seat = self.seats[index]
        if not seat.botted:
            seat.botted, seat.slow = True, slow
            self.bots[index] = BOTS["heuristic"](seed=self.bot_seed(index))

    def take_back(self, index: int) -> bool:
        """The player whose decision's time ran out acts again: the seat is theirs. Whether
        it was the bot's."""
        seat = self.seats[index]
        if not (seat.botted and seat.slow) or self.over:
            return False
        self._unbot(seat, index)
        return True

    def _unbot(self, seat: Seat, index: int) -> None:
        seat.botted = seat.slow = False
        self.bots.pop(index, None)

    @property
    def deciding(self) -> int | None:
        if self.game is None or self.game.state.pending is None:
            return None
        return self.game.state.pending.seat

    def bot_to_play(self) -> int | None:
        seat = self.deciding
        return seat if seat is not None and self.seats[seat].botted else None

    def in_window(self) -> bool:
        """A reaction window is open (public: everyone sees "waiting for reactions")."""
        pending = self.game.state.pending if self.game is not None else None
        return pending is not None and pending.kind == "react"

    def auto_pass(self, passes_by_itself) -> object | None:
        """The one answer of a player who chose to pass by themselves
        (`passes_by_itself(seat)`), asked in a window where they cannot cancel."""
        seat = self.deciding
        if seat is None or not self.in_window() or not passes_by_itself(seat):
            return None
        legal = self.view(seat, with_log=False).legal
        return legal[0] if len(legal) == 1 else None

    def settle(self, passes_by_itself, expired: bool = False):
        """Settle what can be settled of a reaction window. Its seats' answers apply in
        seat order: a bot's (or a player's own pass-by-myself) at once when its turn in
        that order comes — whether it is asked depends on what it holds, so nobody may
        catch the moment — and a player's once given. The window waits for the first
        player in that order who has not answered, until its time is up (`expired`):
        then whoever has not answered lets it happen. Returns the frame of the window
        still open, waiting for a player, or None."""
        while self.game is not None and not self.over:
            if not self.in_window():
                return None
            state = self.game.state
            self._answered_already(passes_by_itself)
            seat = self.bot_to_play()  # a bot decides, even once the time is up
            answer = self.answers.next(state, expired and seat is None)
            if answer is not None:
                self.game.play(answer)
                continue
            if seat is None:
                return self.answers.frame
            self.play_bot(seat, self.bot_choice(seat))
        return None

    def _answered_already(self, passes_by_itself) -> None:
        """In an open window, these have answered already and get no prompt: a seat that
        cannot cancel whatever it holds, as everyone can see (its PA, its power, an
        empty hand: `unable_seats`, the same in every world, so it tells nothing); and
        those who pass by themselves and cannot cancel (their choice: others may read
        it)."""
        state = self.playing.state
        unable = unable_seats(state)
        for seat in window_seats(state):
            if seat in self.answers.answered(state):
                continue
            if seat in unable or passes_by_itself(seat):
                choices = window_choices(state, seat)
                if len(choices) == 1:
                    self.answers.give(state, choices[0])

    def someone_away(self) -> bool:
        """Whether a player the open window waits for has lost their link (public)."""
        state = self.playing.state
        answered = self.answers.answered(state)
        return any(
            self.seats[s].away and not self.seats[s].botted
            for s in window_seats(state)
            if s not in answered
        )

    def view(self, seat: int, with_log: bool = True) -> View:
        state = self.playing.state
        return view_for(state, seat, with_log=with_log, answered=self.answers.answered(state))

    def _holder(self, identity: str) -> int:
        """The seat `identity` plays in a started game (a bot's seat is nobody's)."""
        if self.game is None:
            raise ProtocolError("not_started", "the game has not started")
        index = self.seat_of(identity)
        if index is None or self.seats[index].botted:
            raise ProtocolError("not_seated", "you hold no seat at this table")
        return index

    def _at_version(self, version: int) -> GameState:
        """The game's state, if `version` is the one the player saw."""
        state = self.playing.state
        if version != state.version:
            raise ProtocolError("stale", "the table has moved on: act on the newest view")
        return state

    def act(self, identity: str, version: int, data: dict):
        """A player's action: theirs to take, on the current view, legal. Returns it."""
        index = self._holder(identity)
        action = parse_action(data)
        if getattr(action, "seat", None) != index:
            raise ProtocolError("wrong_seat", "an action is taken for one's own seat")
        state = self._at_version(version)
        pending = state.pending
        if isinstance(action, act.Pass | act.Cancel) and pending and pending.kind == "react":
            # Every seat the window asks answers at once; the table applies the answers
            # in seat order (`settle`), so the first to speak does not take the cancel.
            if not self.answers.give(state, action):
                # One refusal for a seat the window asked, whatever happened since: which
                # answers were applied already must not show (nor what others hold).
                if action.seat in self.answers.asked:
                    raise ProtocolError("illegal", "not_an_option")
                raise ProtocolError("illegal", "not_your_decision", {"waiting": "react"})
            return action
        try:
            self.playing.play(action)
        except IllegalAction as exc:
            raise ProtocolError("illegal", exc.code, exc.params) from None
        return action

    def undo(self, identity: str, version: int) -> int:
        """Take back the seat holder's last move (the engine's rule, one statement of it:
        `engine.can_undo`). The game becomes its replay without it; the save must be
        rewritten (`rewound`) before any view shows that. Returns the seat."""
        index = self._holder(identity)
        state = self._at_version(version)
        if not can_undo(state, index):
            raise ProtocolError("illegal", "cannot_undo")
        game = self.playing
        self.before_undo = (state, self.saves.durable, self.answers)
        game.undo(index)
        self.answers = Answers()
        self.saves.durable = min(self.saves.durable, len(game.actions))
        self.saves.rewound, self.saves.rewound_at = True, len(game.actions)
        self.undone_by = self.seats[index].name
        self.undone_at = len(game.state.log)  # where its notice stands in the log
        return index

    def undo_unsaved(self) -> None:
        """The save that an undo needs could not be written: nothing was shown, the move
        stands as it was."""
        game, before = self.playing, self.before_undo
        assert before is not None, "an undo keeps what stood before it"
        game.state, self.saves.durable, self.answers = before
        self.saves.rewound, self.undone_by = False, ""

    def take_undone(self) -> tuple[str, int]:
        """Who took a move back, and where in the log (said once, once it shows)."""
        undone, self.undone_by = self.undone_by, ""
        return undone, self.undone_at

    def bot_choice(self, seat: int):
        return self.bots[seat].choose(view_for(self.playing.state, seat, with_log=False))

    def play_bot(self, seat: int, action) -> None:
        view = view_for(self.playing.state, seat, with_log=False)
        self.playing.play_chosen(action, view)

    def play_auto(self, action) -> None:
        """A player's own pass-by-myself (`auto_pass`)."""
        self.playing.play(action)

    # ------------------------------------------------------------ lobby and saves

    def round_news(self) -> bool:
        """The table reached a round (or its end) the lobby has not listed yet."""
        state = self.game.state if self.game is not None else None
        where = (state.phase, state.round) if state is not None else None
        if where == self.listed_round:
            return False
        self.listed_round = where
        return True
