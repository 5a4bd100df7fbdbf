"""Load and validate `rules/*.toml` into a `Content`.

Every problem is reported as one line naming the file, the entry and the
field; loading never ends in a traceback for bad content.
"""

from __future__ import annotations

import tomllib
from collections import Counter
from pathlib import Path

import cattrs

from . import effects as fx
from .converter import get_converter, readable_errors
from .defs import (
    CardDef,
    CharacterDef,
    Configuration,
    Constants,
    Content,
    EventDef,
)


def _find_rules_dir() -> Path:
    """`rules/` beside the package (a checkout or editable install), else the installed copy."""
    import sys

    beside = Path(__file__).resolve().parent.parent.parent / "rules"
    installed = Path(sys.prefix) / "share" / "weathering-tui" / "rules"
    return beside if beside.is_dir() or not installed.is_dir() else installed


RULES_DIR = _find_rules_dir()
FILES = ("configurations.toml", "characters.toml", "cards.toml", "events.toml")


class ContentError(Exception):
    """Bad content in `rules/`: `problems` holds one readable line per problem."""

    def __init__(self, problems: list[str]):
        self.problems = problems
        super().__init__("\n".join(problems))


def _read(path: Path, problems: list[str]) -> dict:
    try:
        with path.open("rb") as handle:
            return tomllib.load(handle)
    except FileNotFoundError:
        problems.append(f"{path}: file not found")
    except tomllib.TOMLDecodeError as exc:
        problems.append(f"{path}: not valid TOML: {exc}")
    except OSError as exc:
        problems.append(f"{path}: cannot read: {exc.strerror}")
    return {}


def _check_ops(value, where: str, problems: list[str], context: str) -> None:
    """Check every effect table's `op` before cattrs sees it, for a clear message."""
    if isinstance(value, list):
        for i, item in enumerate(value):
            _check_ops(item, f"{where}[{i}]", problems, context)
        return
    if not isinstance(value, dict):
        problems.append(f"{where}: expected an effect table, got {type(value).__name__}")
        return
    op = value.get("op")
    if op not in fx.OPS_BY_NAME:
        known = ", ".join(sorted(fx.OPS_BY_NAME))
        problems.append(f"{where}: unknown effect op {op!r} (known: {known})")
        return
    if context != "event" and op in fx.EVENT_ONLY_OPS:
        problems.append(f"{where}: effect op {op!r} is for events only")
    for key in ("options",):
        if key in value:
            for j, option in enumerate(value[key]):
                _check_ops(option, f"{where}.{key}[{j}]", problems, context)


def _structure(data, cls, where: str, problems: list[str]):
    try:
        return get_converter().structure(data, cls)
    except cattrs.BaseValidationError as exc:
        problems.extend(readable_errors(exc, where))
    except (TypeError, ValueError) as exc:
        problems.append(f"{where}: {exc}")
    return None


def _entries(doc: dict, key: str, path: Path, problems: list[str]) -> list[dict]:
    entries = doc.get(key, [])
    if not isinstance(entries, list) or not all(isinstance(e, dict) for e in entries):
        problems.append(f"{path}: [[{key}]] must be an array of tables")
        return []
    extra = set(doc) - {key, "constants"}
    if extra:
        problems.append(f"{path}: unknown top-level keys: {', '.join(sorted(extra))}")
    return entries


def _load_many(doc, key, cls, path, problems, context, effect_fields):
    out: dict = {}
    for i, entry in enumerate(_entries(doc, key, path, problems)):
        ident = entry.get("id")
        where = f"{path.name}: {key} {ident!r}" if ident else f"{path.name}: {key} #{i + 1}"
        before = len(problems)
        for field in effect_fields:
            if field == "power" and isinstance(entry.get("power"), dict):
                for lv, level in enumerate(entry["power"].get("levels", [])):
                    if isinstance(level, dict) and "effects" in level:
                        _check_ops(
                            level["effects"],
                            f"{where}: power.levels[{lv}].effects",
                            problems,
                            context,
                        )
            elif field in entry:
                _check_ops(entry[field], f"{where}: {field}", problems, context)
        if len(problems) > before:
            continue
        item = _structure(entry, cls, where, problems)
        if item is None:
            continue
        if item.id in out:
            problems.append(f"{where}: duplicate id {item.id!r}")
            continue
        out[item.id] = item
    return out


def _validate_cards(cards: dict[str, CardDef], constants: Constants, problems: list[str]):
    total = sum(c.copies for c in cards.values())
    if cards and total != constants.action_cards:
        problems.append(
            f"cards.toml: copies add up to {total}, "
            f"constants.action_cards says {constants.action_cards}"
        )
    for card in cards.values():
        if not 1 <= len(card.cartouches) <= 2:
            problems.append(
                f"cards.toml: card {card.id!r}: cartouches: must hold 1 or 2 cartouches"
            )
        for i, cartouche in enumerate(card.cartouches):
            if not cartouche:
                problems.append(f"cards.toml: card {card.id!r}: cartouches[{i}]: empty cartouche")
            if card.is_cancel(i) and len(cartouche) != 1:
                problems.append(
                    f"cards.toml: card {card.id!r}: cartouches[{i}]: cancel stands alone"
                )
            targets = [w for e in cartouche if (w := getattr(e, "who", "")).startswith("target:")]
            if len(set(targets)) > 1:
                problems.append(
                    f"cards.toml: card {card.id!r}: cartouches[{i}]: at most one target selector"
                )
            for e in cartouche:
                if isinstance(e, fx.TakeFromDiscard):
                    for ex in e.exclude:
                        if ex not in cards:
                            problems.append(
                                f"cards.toml: card {card.id!r}: exclude: unknown card id {ex!r}"
                            )


def _validate_events(events: dict[str, EventDef], constants: Constants, problems: list[str]):
    total = sum(e.copies for e in events.values())
    if events and total != constants.event_cards:
        problems.append(
            f"events.toml: copies add up to {total}, "
            f"constants.event_cards says {constants.event_cards}"
        )
    for event in events.values():
        for effect in event.continuous:
            if fx.op_name(effect) not in fx.CONTINUOUS_OPS:
                problems.append(
                    f"events.toml: event {event.id!r}: continuous: "
                    f"{fx.op_name(effect)!r} is not a continuous modifier"
                )
        for field in ("on_reveal", "each_round"):
            for effect in getattr(event, field):
                if fx.op_name(effect) in ("suspend_free_draw", "heal_mod", "damage_mod"):
                    problems.append(
                        f"events.toml: event {event.id!r}: {field}: "
                        f"{fx.op_name(effect)!r} only works as a continuous effect"
                    )
        if event.copies > 1 and event.duration < 2:
            problems.append(
                f"events.toml: event {event.id!r}: a repeated event needs a duration of 2 or more"
            )


def _validate_characters(chars: dict[str, CharacterDef], problems: list[str]):
    for char in chars.values():
        where = f"characters.toml: character {char.id!r}"
        if char.side == "lobbyist" and char.label is None:
            problems.append(f"{where}: label: a Lobbyiste needs a difficulty label")
        if char.side == "ecologist" and char.label is not None:
            problems.append(f"{where}: label: only Lobbyistes carry a difficulty label")
        power = char.power
        for lv, level in enumerate(power.levels):
            has_cancel = any(isinstance(e, fx.Cancel) for e in level.effects)
            if (power.timing == "reaction") != has_cancel:
                problems.append(
                    f"{where}: power.levels[{lv}]: a reaction power is exactly a cancel"
                )
    sides = Counter(c.side for c in chars.values())
    for side in ("ecologist", "lobbyist"):
        if chars and sides[side] == 0:
            problems.append(f"characters.toml: no {side} character")


def load_content(rules_dir: Path | str | None = None) -> Content:
    """Read and validate the four rules files; raise `ContentError` listing every problem."""
    base = Path(rules_dir) if rules_dir is not None else RULES_DIR
    problems: list[str] = []
    docs = {name: _read(base / name, problems) for name in FILES}
    if problems:
        raise ContentError(problems)

    config_doc = docs["configurations.toml"]
    constants = None
    if "constants" not in config_doc:
        problems.append("configurations.toml: [constants] table is missing")
    else:
        constants = _structure(
            config_doc["constants"], Constants, "configurations.toml: constants", problems
        )
    configurations = _load_many(
        config_doc, "configuration", Configuration, base / FILES[0], problems, "config", ()
    )
    characters = _load_many(
        docs["characters.toml"],
        "character",
        CharacterDef,
        base / FILES[1],
        problems,
        "power",
        ("power",),
    )
    cards = _load_many(
        docs["cards.toml"], "card", CardDef, base / FILES[2], problems, "card", ("cartouches",)
    )
    events = _load_many(
        docs["events.toml"],
        "event",
        EventDef,
        base / FILES[3],
        problems,
        "event",
        ("on_reveal", "each_round", "continuous"),
    )
    # Totals are only meaningful when every entry loaded.
    if constants is not None and not problems:
        _validate_cards(cards, constants, problems)
        _validate_events(events, constants, problems)
    _validate_characters(characters, problems)
    if problems:
        raise ContentError(problems)
    assert constants is not None  # (else a problem says why)
    return Content(
        constants=constants,
        configurations=configurations,
        characters=characters,
        cards=cards,
        events=events,
    )
