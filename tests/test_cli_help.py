"""`weathering --help` speaks the player's language: a French player read the game's
screens in French and its help in English. The help's sentences stay the code's English
and are found, each, in the French words (words/fr.toml, `cli_help`)."""

import argparse
import os
import subprocess
import sys

import pytest

from weathering_tui.cli import build_parser, main
from weathering_tui.words import CLI_HELP_FR


def help_sentences(parser: argparse.ArgumentParser) -> list[str]:
    """Every sentence the help of `parser` and its commands shows, once each."""
    found = [parser.description] if parser.description else []
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            found += [choice.help for choice in action._choices_actions if choice.help]
            for sub in action.choices.values():
                found += help_sentences(sub)
        elif action.help and action.help != argparse.SUPPRESS:
            found.append(action.help)
    return list(dict.fromkeys(found))


def test_every_help_sentence_has_its_french_and_no_french_is_left_over():
    english = help_sentences(build_parser())
    assert len(english) > 70
    assert [s for s in english if s not in CLI_HELP_FR] == []
    assert [s for s in CLI_HELP_FR if s not in english] == []  # none stale


@pytest.mark.parametrize("command", [[], ["new"], ["review"], ["duel"]])
def test_the_help_is_french_with_lang_fr(command, capsys):
    with pytest.raises(SystemExit) as done:
        main(["--lang", "fr", *command, "--help"])
    assert done.value.code == 0
    out = capsys.readouterr().out
    assert out.startswith("usage : weathering")
    assert "options :" in out and "afficher cette aide et quitter" in out
    flat = " ".join(out.split())  # (argparse wraps the lines)
    english = [s for s in help_sentences(build_parser()) if CLI_HELP_FR[s] != s]
    assert [s for s in english if len(s) > 20 and s in flat] == []
    assert sum(CLI_HELP_FR[s] in flat for s in english) >= 3


def test_a_french_locale_gets_the_french_help_and_english_stays_english():
    env = {**os.environ, "LANG": "fr_FR.UTF-8", "LC_ALL": "", "LC_MESSAGES": ""}
    french = subprocess.run(
        [sys.executable, "-m", "weathering_tui", "new", "--help"],
        capture_output=True,
        text=True,
        env=env,
    )
    assert french.returncode == 0
    assert "commencer" not in french.stdout  # (the command's own help is its options')
    assert "graine (par défaut : au hasard)" in french.stdout
    assert "mode Découverte : sans événements" in french.stdout
    english = subprocess.run(
        [sys.executable, "-m", "weathering_tui", "--lang", "en", "new", "--help"],
        capture_output=True,
        text=True,
        env=env,
    )
    assert "seed (default: random)" in english.stdout
    assert "usage: weathering new" in english.stdout
