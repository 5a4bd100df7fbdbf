"""The words of the command line: the player's language, plain spaces (a script may grep
what a command prints). Usage errors and the help speak French where asked (`--lang fr`
or a French locale): the help's sentences are the code's English, found in the words."""

from __future__ import annotations

import argparse
import sys

from .. import argline


def tr_for(args):
    """The words for a command's output, in `--lang` or else the locale's language."""
    from ..words import Tr, detect_lang

    return Tr(getattr(args, "lang", None) or detect_lang(), screen=False)


class Parser(argline.Parser):
    """argparse, but a usage error is one clear line (in French where asked) and exit 2."""

    def error(self, message: str):
        if wants_french():
            from ..words import Tr

            tr = Tr("fr", screen=False)
            self.exit(2, tr("cli.usage", prog=self.prog, problem=french_error(message)) + "\n")
        super().error(message)


def french_error(message: str) -> str:
    import re

    from ..words import ARGPARSE_FR

    for pattern, replacement in ARGPARSE_FR:
        if re.fullmatch(pattern, message):
            return re.sub(pattern, replacement, message)
    return message


def wants_french(argv: list[str] | None = None) -> bool:
    from ..words import detect_lang

    argv = sys.argv[1:] if argv is None else argv
    if "--lang" in argv[:-1]:
        return argv[argv.index("--lang") + 1] == "fr"
    return any(a == "--lang=fr" for a in argv) or detect_lang() == "fr"


class _FrenchHelp(argparse.HelpFormatter):
    """argparse's own words in French: "usage :", "arguments :", "options :"."""

    def add_usage(self, usage, actions, groups, prefix=None):
        super().add_usage(usage, actions, groups, "usage : " if prefix is None else prefix)

    def start_section(self, heading):
        super().start_section(f"{heading} " if heading else heading)  # then argparse's ":"


def in_french(parser: argparse.ArgumentParser) -> None:
    """The help in French: every sentence from the words, found by its English (the
    code's, which tests/test_cli_help.py holds to have one), and argparse's headings."""
    from ..words import CLI_HELP_FR

    def french(text):
        return CLI_HELP_FR.get(text, text) if isinstance(text, str) else text

    parser.formatter_class = _FrenchHelp
    parser.description = french(parser.description)
    parser._positionals.title = "arguments"
    for action in parser._actions:
        action.help = french(action.help)
        if isinstance(action, argparse._SubParsersAction):
            for choice in action._choices_actions:
                choice.help = french(choice.help)
            for sub in action.choices.values():
                in_french(sub)
