"""Every command answers --help with its usage (exit 0) and a bad argument with one
line (exit 2): the `weathering` subcommands and every module run with `python -m`."""

import subprocess
import sys
from pathlib import Path

import pytest

import weathering_tui
from weathering_tui.cli import build_parser, main

PACKAGE = Path(weathering_tui.__file__).parent


def runnable_modules() -> list[str]:
    """Every module of the package that does something when run with `python -m`."""
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        if path.name == "__main__.py" or 'if __name__ == "__main__":' in text:
            parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
            if parts[-1] == "__main__":
                parts = parts[:-1]
            found.append(".".join(parts))
    return found


def subcommands() -> list[str]:
    parser = build_parser()
    choices = next(a for a in parser._actions if a.dest == "command").choices
    return sorted(choices)


def test_the_walk_finds_the_modules_it_must():
    modules = runnable_modules()
    for expected in ("weathering_tui", "weathering_tui.bench"):
        assert expected in modules
    assert {"new", "serve", "join", "simulate"} <= set(subcommands())


@pytest.mark.parametrize("module", runnable_modules())
def test_every_python_m_module_answers_help_and_refuses_a_bad_option(module):
    helped = subprocess.run(
        [sys.executable, "-m", module, "--help"], capture_output=True, text=True, timeout=60
    )
    assert helped.returncode == 0, helped.stderr
    assert "usage:" in helped.stdout
    refused = subprocess.run(
        [sys.executable, "-m", module, "--no-such-option"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert refused.returncode == 2
    assert "Traceback" not in refused.stderr
    assert len(refused.stderr.strip().splitlines()) == 1, refused.stderr


@pytest.mark.parametrize("command", subcommands())
def test_every_subcommand_answers_help_and_refuses_a_bad_option(command, capsys, monkeypatch):
    monkeypatch.setattr(sys, "argv", ["weathering", "--lang", "en", command, "--help"])
    with pytest.raises(SystemExit) as helped:
        main(["--lang", "en", command, "--help"])
    assert helped.value.code == 0
    assert "usage:" in capsys.readouterr().out
    monkeypatch.setattr(sys, "argv", ["weathering", "--lang", "en", command, "--no-such"])
    with pytest.raises(SystemExit) as refused:
        main(["--lang", "en", command, "--no-such-option"])
    assert refused.value.code == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1, err
