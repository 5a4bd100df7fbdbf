"""`weathering simulate` prints figures; usage errors are one line and exit 2."""

import json
import os
import subprocess
import sys

import pytest

from weathering_tui.cli import main
from weathering_tui.engine import sides_of


def test_simulate_json_has_the_promised_fields_and_equal_seeds_give_equal_digests(capsys):
    assert main(["simulate", "--games", "5", "--config", "2v1", "--seed", "3", "--json"]) == 0
    first = json.loads(capsys.readouterr().out)
    for key in (
        "games",
        "seconds",
        "games_per_second",
        "mean_actions_per_game",
        "outcomes",
        "ecologist_win_rate",
        "mean_final_hp",
        "draw_pile_empty_rate",
        "results_digest",
    ):
        assert key in first
    assert first["games"] == 5 and sum(first["outcomes"].values()) == 5
    assert main(["simulate", "--games", "5", "--config", "2v1", "--seed", "3", "--json"]) == 0
    second = json.loads(capsys.readouterr().out)
    assert second["results_digest"] == first["results_digest"]
    assert main(["simulate", "--games", "5", "--config", "2v1", "--seed", "4", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["results_digest"] != first["results_digest"]


def test_simulate_text_summary(capsys):
    assert main(["simulate", "--games", "3", "--config", "1v1"]) == 0
    out = capsys.readouterr().out
    assert "1v1" in out and "games/s" in out and "Écolo win rate" in out


ENGLISH = {**os.environ, "LANG": "C.UTF-8", "LC_ALL": "", "LC_MESSAGES": ""}


def test_unknown_option_is_one_clear_line_and_exit_2():
    result = subprocess.run(
        [sys.executable, "-m", "weathering_tui", "simulate", "--games", "x"],
        capture_output=True,
        text=True,
        env=ENGLISH,
    )
    assert result.returncode == 2
    assert result.stderr.count("\n") == 1 and "expected a whole number" in result.stderr
    assert "Traceback" not in result.stderr
    result = subprocess.run(
        [sys.executable, "-m", "weathering_tui", "--frobnicate"],
        capture_output=True,
        text=True,
        env=ENGLISH,
    )
    assert result.returncode == 2 and "unrecognized arguments" in result.stderr


def test_the_c_locale_writes_utf8_and_speaks_english():
    """LANG=C LC_ALL=C: Python's UTF-8 mode writes accents and box-drawing characters as
    UTF-8 (no '?' and no UnicodeEncodeError), as the game's screen is drawn; the language
    from such a locale is English (tests/ui/test_snapshots.py has the screen)."""
    c_locale = {**os.environ, "LANG": "C", "LC_ALL": "C", "LC_MESSAGES": ""}
    c_locale.pop("PYTHONUTF8", None)
    c_locale.pop("PYTHONIOENCODING", None)
    result = subprocess.run(
        [sys.executable, "-m", "weathering_tui", "--help"], capture_output=True, env=c_locale
    )
    assert result.returncode == 0
    assert "Écolos restore the ecosystem".encode() in result.stdout
    probe = "import sys; print(sys.stdout.encoding, '╭─│▸✋'.encode(sys.stdout.encoding) != b'')"
    result = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, env=c_locale
    )
    assert result.stdout.split() == ["utf-8", "True"], result


def test_a_usage_error_speaks_french_to_a_french_player():
    french = {**ENGLISH, "LANG": "fr_FR.UTF-8"}
    for args, words in (
        (["new", "--difficulty", "nope"], "choix inconnu 'nope'"),
        (["check"], "il manque : NAME|PATH"),
        (["--frobnicate"], "options inconnues : --frobnicate"),
    ):
        result = subprocess.run(
            [sys.executable, "-m", "weathering_tui", *args],
            capture_output=True,
            text=True,
            env=french,
        )
        assert result.returncode == 2
        assert result.stderr.count("\n") == 1 and words in result.stderr, result.stderr
        assert "erreur" in result.stderr and "error" not in result.stderr


def test_french_elides_de_before_a_vowel_in_names():
    from weathering_tui.words import Tr

    fr = Tr("fr")
    assert fr("hand_of", name="Insatiable", n=3) == "Main d'Insatiable (3)"
    assert fr("hand_of", name="Cassy", n=3) == "Main de Cassy (3)"
    assert Tr("en")("hand_of", name="Insatiable", n=3) == "Insatiable's hand (3)"


def test_list_and_check_speak_french_and_show_previous_copies(tmp_path, capsys):
    import shutil
    from pathlib import Path

    from weathering_tui.cli import main

    example = Path(__file__).parent.parent / "saves" / "examples" / "1v1-last-round.toml"
    shutil.copy(example, tmp_path / "duel.toml")
    shutil.copy(example, tmp_path / "duel.toml.bak")
    (tmp_path / "broken.toml").write_text("x", encoding="utf-8")
    assert main(["list", "--saves-dir", str(tmp_path), "--lang", "fr"]) == 0
    out = capsys.readouterr().out
    assert "Tour 5/5" in out and "copie précédente" in out and "duel.toml.bak" in out
    assert " UTC\n" in out and "Z " not in out  # a date people read, not the raw stamp
    saves = [line for line in out.splitlines() if "duel" in line or "Tour" in line]
    assert len(saves) == 4 and max(map(len, saves)) <= 80  # a play-test's ran to 92
    assert "illisible : n'est pas du TOML valide" in out and "is not valid" not in out
    assert main(["check", str(tmp_path / "broken.toml"), "--lang", "fr"]) == 2
    assert "REFUSÉE" in capsys.readouterr().out


def test_a_long_run_shows_its_progress_on_a_terminal_only():
    """simulate and balance draw a bar on stderr when it is a terminal (games done,
    games/s, time left); piped, nothing is written."""
    import io

    from weathering_tui.sim.progress import Progress
    from weathering_tui.sim.simulate import simulate
    from weathering_tui.words import Tr

    class Terminal(io.StringIO):
        def isatty(self):
            return True

    screen = Terminal()
    bar = Progress(6, Tr("en"), stream=screen, every=0)
    simulate(6, "1v1", 3, progress=bar)
    bar.close()
    shown = screen.getvalue()
    assert "6/6 games" in shown and "games/s" in shown and "left" in shown
    assert "3/6 games" in shown, "it moves as games finish"
    piped = io.StringIO()
    quiet = Progress(6, Tr("fr"), stream=piped, every=0)
    simulate(6, "1v1", 3, progress=quiet)
    assert piped.getvalue() == ""
    french = Terminal()
    in_french = Progress(2, Tr("fr"), stream=french, every=0)
    simulate(2, "1v1", 3, progress=in_french)
    in_french.close()
    assert "2/2 parties" in french.getvalue() and "parties/s" in french.getvalue()


@pytest.mark.parametrize(
    ("config", "humans", "seats"),
    [
        ("1v1", 2, {0, 1}),
        ("2v1", 2, {0, 2}),  # an Écolo and the Lobbyiste: people on both sides
        ("3v2", 3, {0, 3, 1}),  # not three Écolos against two bots
        ("3v2", 5, {0, 1, 2, 3, 4}),
        ("4v1", 3, {0, 4, 1}),
        ("2v2", 1, {0}),
    ],
)
def test_humans_sit_on_both_sides_in_turn(config, humans, seats):
    from weathering_tui.engine import human_seats

    eco, lob = sides_of(config)
    assert set(human_seats(eco, lob, humans)) == seats


def test_a_reader_that_goes_away_gets_no_traceback():
    """`weathering replay SAVE --json | head -c 300`: the reader closes the pipe; the
    command stops without a word (a play-test saw a BrokenPipeError traceback)."""
    import subprocess
    import sys
    from pathlib import Path

    save = Path(__file__).resolve().parent.parent / "saves" / "examples" / "1v1-last-round.toml"
    child = subprocess.Popen(
        [sys.executable, "-m", "weathering_tui", "replay", str(save), "--json"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    child.stdout.close()  # before the child writes a byte: its first write meets no reader
    _, err = child.communicate(timeout=60)
    assert b"Traceback" not in err and b"BrokenPipe" not in err, err.decode()
    assert child.returncode == 1
