"""Saved games as TOML: written atomically, read back with every check (README § Save files).

A save holds the setup, the list of actions, a snapshot of the state (without
its log, which replay rebuilds) and metadata for listing. Loading replays the
actions from the setup and refuses the file unless the replay gives the
snapshot, so a save can never be silently edited or corrupted.
"""

from __future__ import annotations

import datetime as dt
import functools
import typing
from pathlib import Path

import attrs
import cattrs
import tomli_w
from cattrs.gen import make_dict_structure_fn, make_dict_unstructure_fn, override
from cattrs.strategies import configure_tagged_union

from ..content import Content, default_content
from ..content.converter import make_converter, readable_errors
from ..engine import (
    SPECTATOR,
    IllegalAction,
    apply,
    apply_chosen,
    card_id,
    copies_of,
    new_game,
    undo,
    view_for,
    why_illegal,
)
from ..engine import actions as act
from ..engine import state as st
from .atomicfile import atomic_write
from .savemeta import (  # noqa: F401 - re-exported: the save file's public names
    FORMAT,
    FORMAT_VERSION,
    SaveError,
    list_saves,
    read_document,
    resolve,
    saves_dir,
)


@attrs.define
class SavedGame:
    """A game as the app keeps it: setup, current state, timestamps. Its actions are the
    ones its state records (`state.history.actions`, the engine's): kept once."""

    setup: st.Setup
    state: st.GameState  # never headless: its history is the game's actions
    created: str
    updated: str
    handed: list[int] = attrs.Factory(list)  # human seats handed to a bot since the setup
    table: dict = attrs.Factory(dict)  # a networked table's seats and owners (its server's)

    @classmethod
    def start(cls, setup: st.Setup, content: Content | None = None, now: str | None = None):
        stamp = now or timestamp()
        return cls(setup, new_game(setup, content), stamp, stamp)

    @property
    def actions(self) -> list:
        """The actions played so far, in order (read them; `play` and `undo` change them)."""
        return self.state.history.actions

    def play(self, action, now: str | None = None) -> None:
        """Apply one action (IllegalAction leaves everything as it was): the state
        records it."""
        self.play_chosen(action, None, now)

    def play_chosen(self, action, view, now: str | None = None) -> None:
        """`play` an action chosen from `view`, its seat's view now (`engine.apply_chosen`)."""
        apply_chosen(self.state, action, view)
        self.updated = now or timestamp()

    def undo(self, seat: int) -> None:
        """Take back `seat`'s last decision (`engine.undo`: the game becomes its replay
        without it)."""
        self.state = undo(self.state, seat)


def timestamp() -> str:
    return dt.datetime.now(dt.UTC).replace(microsecond=0).isoformat().replace("+00:00", "Z")


# ------------------------------------------------------------ converter


def _drop_none(converter: cattrs.Converter, cls, **overrides):
    base = make_dict_unstructure_fn(cls, converter, **overrides)

    def unstructure(obj):  # TOML has no null: absent means "none"
        return {k: v for k, v in base(obj).items() if v is not None}

    return unstructure


@functools.cache
def save_converter() -> cattrs.Converter:
    converter = make_converter()
    converter.register_unstructure_hook_factory(attrs.has, lambda cls: _drop_none(converter, cls))
    configure_tagged_union(
        act.Action, converter, tag_name="kind", tag_generator=act.ACTION_NAMES.__getitem__
    )
    frame_names = {
        cls: cls.__name__.removesuffix("Frame").lower() for cls in typing.get_args(st.Frame)
    }
    configure_tagged_union(
        st.Frame, converter, tag_name="frame", tag_generator=frame_names.__getitem__
    )
    rng_hooks: dict[str, typing.Any] = {
        "rng": override(unstruct_hook=lambda v: f"{v:016x}", struct_hook=_parse_rng),
        "content": override(omit=True),
        "keep_log": override(omit=True),
        "headless": override(omit=True),
        "log": override(omit=True),
        "history": override(omit=True),
    }
    converter.register_unstructure_hook(
        st.GameState, _drop_none(converter, st.GameState, **rng_hooks)
    )
    converter.register_structure_hook(
        st.GameState,
        make_dict_structure_fn(
            st.GameState, converter, _cattrs_forbid_extra_keys=True, **rng_hooks
        ),
    )
    return converter


def _parse_rng(value, _type) -> int:
    if not isinstance(value, str):
        raise TypeError("expected a hexadecimal string")
    number = int(value, 16)
    if not 0 <= number < 2**64:
        raise ValueError("out of range")
    return number


# ------------------------------------------------------------ writing


def metadata(game: SavedGame) -> dict:
    state = game.state
    public = view_for(state, SPECTATOR, with_log=False)
    meta = {
        "created": game.created,
        "updated": game.updated,
        "configuration": game.setup.configuration,
        "phase": state.phase,
        "round": state.round,
        "round_in_phase": public.round_in_phase,
        "rounds_per_phase": public.rounds_per_phase,
        "hp": state.hp,
        "players": [f"{p.name} ({p.character})" for p in state.players],
        "humans": [p.seat for p in state.players if p.human],
        "finished": state.over,
        "action_count": len(game.actions),
    }
    if game.handed:
        meta["handed_to_bots"] = list(game.handed)
    if game.table:
        meta["table"] = game.table
    if state.outcome is not None:
        meta["outcome"] = state.outcome.band
        meta["winner"] = state.outcome.winner
    return meta


def to_toml(game: SavedGame) -> str:
    converter = save_converter()
    document = {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "meta": metadata(game),
        "setup": converter.unstructure(game.setup),
        "actions": [converter.unstructure(a, act.Action) for a in game.actions],
        "state": converter.unstructure(game.state),
    }
    return tomli_w.dumps(document)


def write_save(path, game: SavedGame, backup: bool = True, durable: bool = True) -> Path:
    """Save atomically; the previous version, if any, is kept as NAME.toml.bak.

    A table server, which saves after every action of many tables, writes without the
    backup and without fsync: a killed server still finds the old file or the new one."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    data = to_toml(game).encode("utf-8")
    if not backup:
        atomic_write(path, data, durable)
        return path
    if path.is_file() and not path.is_symlink():
        old = path.read_bytes()
        if old == data:
            return path
        atomic_write(path.with_name(path.name + ".bak"), old)
    atomic_write(path, data)
    return path


# ------------------------------------------------------------ reading


def _structure(path: Path, data, cls, where: str):
    try:
        return save_converter().structure(data, cls)
    except cattrs.BaseValidationError as exc:
        raise SaveError(path, "wrong_shape", p0="; ".join(readable_errors(exc, where))) from None
    except (TypeError, ValueError, KeyError) as exc:
        raise SaveError(path, "problem", p0=where, p1=exc) from None


def _check_snapshot(path: Path, state: st.GameState, content: Content) -> None:
    """Ranges and card identity, before the (costlier) replay."""
    if not 0 <= state.hp <= 30:
        raise SaveError(path, "state_hp_is_the_gauge", p0=state.hp)
    for player in state.players:
        if not 0 <= player.ap <= content.constants.ap_cap:
            raise SaveError(path, "state_players_ap_is_pa", p0=player.seat, p1=player.ap)
        if player.stored_ap < 0:
            raise SaveError(path, "state_players_stored_ap_is", p0=player.seat)
    zones = [state.draw_pile, state.discard_pile, state.limbo]
    for player in state.players:
        zones += [player.hand, player.deck]
    cards = [c for zone in zones for c in zone]
    expected = {c for card in content.cards.values() for c in copies_of(card)}
    for instance in cards:
        card = content.cards.get(card_id(instance))
        if card is None:
            raise SaveError(path, "unknown_card_in_the_snapshot", p0=repr(card_id(instance)))
        if instance not in expected:
            raise SaveError(path, "card_does_not_exist_copies", p0=repr(instance), p1=card.copies)
    counts: dict[str, int] = {}
    for instance in cards:
        counts[instance] = counts.get(instance, 0) + 1
    twice = sorted(c for c, n in counts.items() if n > 1)
    if twice:
        raise SaveError(path, "card_is_in_the_snapshot", p0=twice[0])
    missing = sorted(expected - set(counts))
    if missing:
        raise SaveError(path, "card_is_missing_from_the", p0=missing[0])
    unknown_chars = [p.character for p in state.players if p.character not in content.characters]
    if unknown_chars:
        raise SaveError(path, "unknown_character", p0=repr(unknown_chars[0]))


def read_save(path, content: Content | None = None, raw: bytes | None = None) -> SavedGame:
    """Load and verify a save; raise SaveError naming the file and the problem. `raw`:
    the save's bytes when they do not come from `path` (which then names them)."""
    path = Path(path)
    content = content or default_content()
    document = read_document(path, raw)
    meta = document["meta"]
    if not isinstance(meta, dict):
        raise SaveError(path, "meta_must_be_a_table")
    setup = _structure(path, document["setup"], st.Setup, "setup")
    if not isinstance(document["actions"], list):
        raise SaveError(path, "actions_must_be_a_list")
    actions = [
        _structure(path, a, act.Action, f"actions[{i}]") for i, a in enumerate(document["actions"])
    ]
    snapshot = _structure(path, document["state"], st.GameState, "state")
    snapshot.content = content
    _check_snapshot(path, snapshot, content)
    if snapshot.setup != setup:
        raise SaveError(path, "the_snapshot_s_setup_differs")
    try:
        state = new_game(setup, content)
    except IllegalAction as exc:
        raise SaveError(path, "setup", p0=exc) from None
    for i, action in enumerate(actions):
        refusal = why_illegal(state, action)
        if refusal is not None:
            raise SaveError(
                path, "actions_is_illegal", p0=i, p1=act.action_name(action), p2=refusal
            )
        apply(state, action)
    converter = save_converter()
    if converter.unstructure(state) != converter.unstructure(snapshot):
        raise SaveError(path, "the_snapshot_does_not_match")
    created, updated = meta.get("created"), meta.get("updated")
    if not isinstance(created, str) or not isinstance(updated, str):
        raise SaveError(path, "meta_created_and_meta_updated")
    handed = meta.get("handed_to_bots", [])
    seats = range(len(setup.seats))
    if not isinstance(handed, list) or not all(isinstance(s, int) and s in seats for s in handed):
        raise SaveError(path, "meta_handed_to_bots_must")
    table = meta.get("table", {})
    if not isinstance(table, dict):
        raise SaveError(path, "meta_table_must_be_a")
    game = SavedGame(setup, state, created, updated, handed, table)
    # `list` and the load screen show [meta] without replaying: it must tell the truth.
    expected = metadata(game)
    wrong = sorted(k for k in expected.keys() | meta.keys() if expected.get(k) != meta.get(k))
    if wrong:
        key = wrong[0]
        raise SaveError(
            path, "meta_is_but_the_game", p0=key, p1=repr(meta.get(key)), p2=repr(expected.get(key))
        )
    return game


def autosave_name(game: SavedGame) -> str:
    stamp = game.created.replace("-", "").replace(":", "").replace("T", "-").rstrip("Z")
    return f"autosave-{stamp}"
