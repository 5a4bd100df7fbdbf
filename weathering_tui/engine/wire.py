"""Views and actions as JSON, through the project's cattrs converter.

This is the form in which a table server sends a seat its view and receives the
seat's actions: `view_to_json(view)` / `view_from_json(text)` round-trip exactly,
and so do `action_to_data(action)` / `action_from_data(data)`. Actions are tagged
by `kind` (the names of `actions.ACTION_NAMES`), as in save files.
"""

from __future__ import annotations

import functools
import json

import cattrs
from cattrs.strategies import configure_tagged_union

from ..content.converter import make_converter
from . import actions as act
from .state import Frame
from .view import View


@functools.cache
def wire_converter() -> cattrs.Converter:
    """The project's converter (unknown keys refused) with actions tagged by `kind`."""
    return new_wire_converter()


def new_wire_converter(strict: bool = False) -> cattrs.Converter:
    """A new wire converter (to extend: cattrs' `copy` loses tagged unions). `strict`
    for untrusted input: a value of the wrong JSON type is refused, never converted
    (no `str(0)`, `int(True)` or `str(None)`, which cattrs does by default)."""
    converter = make_converter()
    if strict:
        converter.register_structure_hook(str, _exactly(str))
        converter.register_structure_hook(int, _exactly(int))
        converter.register_structure_hook(bool, _exactly(bool))
        converter.register_structure_hook(float, _exactly(float, int))
        converter.register_structure_hook(dict, _exactly(dict))
    configure_tagged_union(
        act.Action, converter, tag_name="kind", tag_generator=act.ACTION_NAMES.__getitem__
    )
    # A view's resolution stack: each frame tagged by its record's name.
    configure_tagged_union(Frame, converter, tag_name="frame")
    return converter


def _exactly(kind: type, *also: type):
    allowed = (kind, *also)

    def structure(value, _):
        if type(value) not in allowed:
            raise TypeError(f"expected {kind.__name__}, got {type(value).__name__}")
        return value

    return structure


def view_to_data(view: View) -> dict:
    return wire_converter().unstructure(view)


def view_from_data(data: dict) -> View:
    return wire_converter().structure(data, View)


def view_to_json(view: View) -> str:
    return json.dumps(view_to_data(view), ensure_ascii=False, separators=(",", ":"))


def view_from_json(text: str) -> View:
    return view_from_data(json.loads(text))


def action_to_data(action) -> dict:
    return wire_converter().unstructure(action, act.Action)


def action_from_data(data: dict):
    """An action from untrusted data: raises cattrs' errors on a wrong shape or extra key."""
    # act.Action is a Union, which cattrs structures but its signature (type[T]) does not say.
    return wire_converter().structure(data, act.Action)  # type: ignore[arg-type]
