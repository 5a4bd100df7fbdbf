"""The project's one cattrs converter (rules files now, save files later)."""

from __future__ import annotations

import functools

import attrs
import cattrs
from cattrs.strategies import configure_tagged_union

from . import effects as fx


@functools.cache
def get_converter() -> cattrs.Converter:
    """A converter that refuses unknown keys and reads effects by their `op` tag."""
    converter = cattrs.Converter(forbid_extra_keys=True)
    for cls in fx.OP_NAMES:
        attrs.resolve_types(cls, vars(fx))
    configure_tagged_union(
        fx.Effect, converter, tag_name="op", tag_generator=fx.OP_NAMES.__getitem__
    )
    return converter
