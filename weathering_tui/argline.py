"""argparse for the project's commands and `python -m` modules: a usage error is one
line and exit status 2, `--help` the usage and exit 0 (argparse's own)."""

from __future__ import annotations

import argparse


class Parser(argparse.ArgumentParser):
    def error(self, message: str):
        self.exit(2, f"{self.prog}: error: {message} (see --help)\n")


def count(text: str) -> int:
    """A whole number of at least 1 (a count of games, tables, players...)."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected at least 1, got {value}")
    return value
