"""The `weathering` command line."""

from __future__ import annotations

import argparse
import json
import sys

CONFIGURATIONS = ("1v1", "2v1", "3v1", "4v1", "2v2", "3v2")


class _Parser(argparse.ArgumentParser):
    """argparse, but a usage error is one clear line and exit status 2."""

    def error(self, message: str):
        self.exit(2, f"{self.prog}: error: {message} (see --help)\n")


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected at least 1, got {value}")
    return value


def _seed(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="weathering",
        description="Weathering: Écolos restore the ecosystem, Lobbyistes wreck it.",
    )
    commands = parser.add_subparsers(dest="command", parser_class=_Parser)
    sim = commands.add_parser("simulate", help="play many bot games and print a summary")
    sim.add_argument("--games", type=_positive, default=100, help="number of games (default 100)")
    sim.add_argument("--config", choices=CONFIGURATIONS, default="3v2", help="configuration XvY")
    sim.add_argument("--seed", type=_seed, default=1, help="seed of the first game (default 1)")
    sim.add_argument(
        "--bots", choices=("random",), default="random", help="bot kind for every seat"
    )
    sim.add_argument("--json", action="store_true", help="print one JSON object")
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    if args.command == "simulate":
        from .content import ContentError
        from .simulate import format_summary, simulate

        try:
            summary = simulate(args.games, args.config, args.seed, args.bots)
        except ContentError as exc:
            print("weathering: the rules files are broken:", file=sys.stderr)
            for problem in exc.problems:
                print(f"  {problem}", file=sys.stderr)
            return 2
        print(json.dumps(summary) if args.json else format_summary(summary))
        return 0
    print(
        "The terminal game screen is not built yet. "
        "Try: weathering simulate --games 100 --config 3v2",
    )
    return 0
