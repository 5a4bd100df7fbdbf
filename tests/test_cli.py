"""`weathering simulate` prints figures; usage errors are one line and exit 2."""

import json
import subprocess
import sys

from weathering_tui.cli import main


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


def test_unknown_option_is_one_clear_line_and_exit_2():
    result = subprocess.run(
        [sys.executable, "-m", "weathering_tui", "simulate", "--games", "x"],
        capture_output=True,
        text=True,
    )
    assert result.returncode == 2
    assert result.stderr.count("\n") == 1 and "expected a whole number" in result.stderr
    assert "Traceback" not in result.stderr
    result = subprocess.run(
        [sys.executable, "-m", "weathering_tui", "--frobnicate"], capture_output=True, text=True
    )
    assert result.returncode == 2 and "unrecognized arguments" in result.stderr
