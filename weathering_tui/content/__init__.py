"""The printed material of Weathering, read from `rules/`."""

from __future__ import annotations

import functools

from .defs import CardDef, CharacterDef, Configuration, Constants, Content, EventDef
from .loader import RULES_DIR, ContentError, load_content


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
    "EventDef",
    "default_content",
    "load_content",
]
