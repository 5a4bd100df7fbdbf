"""The words of the command line: the player's language, plain spaces (a script may grep
what a command prints)."""

from __future__ import annotations


def tr_for(args):
    """The words for a command's output, in `--lang` or else the locale's language."""
    from ..words import Tr, detect_lang

    return Tr(getattr(args, "lang", None) or detect_lang(), screen=False)
