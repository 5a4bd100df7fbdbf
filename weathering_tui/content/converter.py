"""The project's one cattrs converter (rules files now, save files later)."""

from __future__ import annotations

import functools

import attrs
import cattrs
import cattrs.v
from cattrs.strategies import configure_tagged_union

from . import effects as fx


@functools.cache
def get_converter() -> cattrs.Converter:
    """The shared converter for the rules files."""
    return make_converter()


def make_converter() -> cattrs.Converter:
    """A converter that refuses unknown keys and reads effects by their `op` tag;
    the save file extends one with the engine's actions and frames."""
    converter = cattrs.Converter(forbid_extra_keys=True)
    for cls in fx.OP_NAMES:
        attrs.resolve_types(cls, vars(fx))
    configure_tagged_union(
        fx.Effect, converter, tag_name="op", tag_generator=fx.OP_NAMES.__getitem__
    )
    return converter


def _format(exc: BaseException, type_) -> str:
    # attrs validators raise ValueError naming the field ("'cost' must be >= 0: -1");
    # keep that text rather than cattrs' bare "invalid value".
    if isinstance(exc, ValueError) and type_ is None and exc.args:
        return str(exc.args[0])
    return cattrs.v.format_exception(exc, type_)


def readable_errors(exc: BaseException, where: str) -> list[str]:
    """cattrs errors as lines "WHERE: field: problem", one per problem."""
    lines = []
    for line in cattrs.transform_error(exc, path="$", format_exception=_format):
        message, _, path = line.rpartition(" @ ")
        field = path.removeprefix("$").lstrip(".")
        lines.append(f"{where}: {field}: {message}" if field else f"{where}: {message}")
    return lines
