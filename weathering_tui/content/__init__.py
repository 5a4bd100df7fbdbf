"""The printed material of Weathering, read from `rules/`."""

from __future__ import annotations

import functools

from .defs import CardDef, CharacterDef, Configuration, Constants, Content, EventDef
from .loader import RULES_DIR, ContentError, load_content


@functools.cache
def configuration_ids() -> tuple[str, ...]:
    """The configurations the rules offer ("1v1", …), read from the rules file alone
    (quick: for command-line choices and protocol checks, before the whole content)."""
    import tomllib

    with open(RULES_DIR / "configurations.toml", "rb") as handle:
        entries = tomllib.load(handle).get("configuration", [])
    return tuple(e["id"] for e in entries if isinstance(e, dict) and isinstance(e.get("id"), str))


@functools.cache
def default_content() -> Content:
    """The game's own rules files, loaded once per process."""
    return load_content(RULES_DIR)


__all__ = [
    "RULES_DIR",
    "CardDef",
    "CharacterDef",
    "Configuration",
    "Constants",
    "Content",
    "ContentError",
    "configuration_ids",
    "EventDef",
    "default_content",
    "load_content",
]
