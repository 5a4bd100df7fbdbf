"""Saves: byte-exact round trips, exact resumption, and a corpus of bad files."""

import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from weathering_tui.bots import RandomBot
from weathering_tui.engine import PendingKind, Setup, view_for
from weathering_tui.engine.state import SeatSetup
from weathering_tui.storage.savefile import (
    FORMAT_VERSION,
    SavedGame,
    SaveError,
    read_save,
    to_toml,
    write_save,
)

CONFIGS = ["1v1", "2v1", "3v1", "4v1", "2v2", "3v2"]
NOW = "2026-11-30T12:00:00Z"


def play(setup, count=None, seed=0, stop=None):
    """Play with random bots; stop after `count` actions or when `stop(state)` holds."""
    game = SavedGame.start(setup, now=NOW)
    bots = [RandomBot(seed * 31 + i) for i in range(len(setup.seats))]
    while not game.state.over:
        if count is not None and len(game.actions) >= count:
            break
        if stop is not None and stop(game.state):
            break
        seat = game.state.pending.seat
        view = view_for(game.state, seat, with_log=False)
        game.play_chosen(bots[seat].choose(view), view, now=NOW)
    return game


def roundtrip(game, tmp_path, name="game.toml"):
    path = write_save(tmp_path / name, game)
    first = path.read_bytes()
    loaded = read_save(path)
    assert to_toml(loaded).encode() == first
    assert loaded.state == game.state
    return loaded


@pytest.mark.parametrize("config", CONFIGS)
def test_round_trip_is_byte_identical_in_every_phase(config, tmp_path):
    setup = Setup.standard(config, seed=21)
    for stop in (
        lambda s: s.stage == "mulligan" and s.pending.seat == 1,
        lambda s: s.round == 3,
        lambda s: s.stage == "transition",
        lambda s: s.round == 8,
        None,
    ):
        game = play(setup, stop=stop)
        roundtrip(game, tmp_path)


@pytest.mark.parametrize(
    "kind",
    [
        "react",
        "choose_discard",
        "choose_option",
        "trade_answer",
        "claim_synergy",
        "choose_exchange",
    ],
)
def test_round_trip_with_a_decision_open(kind, tmp_path):
    for seed in range(200):
        setup = Setup.standard(["2v1", "3v2", "2v2"][seed % 3], seed=seed)
        game = play(
            setup, seed=seed, stop=lambda s: s.pending is not None and s.pending.kind == kind
        )
        if not game.state.over:
            loaded = roundtrip(game, tmp_path)
            assert loaded.state.pending.kind is PendingKind(kind)  # the member, not a str
            return
    raise AssertionError(f"no game reached a {kind} decision")


def test_a_resumed_game_continues_exactly_as_the_uninterrupted_one(tmp_path):
    setup = Setup.standard("3v2", seed=4)
    whole = play(setup, seed=4)
    half = play(setup, count=len(whole.actions) // 2, seed=4)
    path = write_save(tmp_path / "half.toml", half)
    resumed = read_save(path)
    for action in whole.actions[len(half.actions) :]:
        resumed.play(action, now=NOW)
    assert resumed.state.log == whole.state.log
    assert to_toml(resumed) == to_toml(whole)


def test_a_previous_version_is_kept_as_backup(tmp_path):
    setup = Setup.standard("2v1", seed=1)
    first = play(setup, count=10)
    path = write_save(tmp_path / "g.toml", first)
    old = path.read_bytes()
    second = play(setup, count=20)
    write_save(path, second)
    assert (tmp_path / "g.toml.bak").read_bytes() == old
    assert read_save(tmp_path / "g.toml.bak").state == first.state


# ---------------------------------------------------------------- bad files


@pytest.fixture(scope="module")
def good_text():
    setup = Setup(
        "2v1",
        (
            SeatSetup("ecologist", "priya", human=True),
            SeatSetup("ecologist"),
            SeatSetup("lobbyist"),
        ),
        seed=3,
    )
    return to_toml(play(setup, count=40))


def edit(text, old, new, count=1):
    assert old in text, old
    return text.replace(old, new, count)


def hand_swap(text):
    """Swap a hand card and a draw-pile card inside the snapshot only."""
    import tomllib

    import tomli_w

    doc = tomllib.loads(text)
    player = doc["state"]["players"][0]
    player["hand"][0], doc["state"]["draw_pile"][0] = (
        doc["state"]["draw_pile"][0],
        player["hand"][0],
    )
    return tomli_w.dumps(doc)


def doc_edit(text, change):
    import tomllib

    import tomli_w

    doc = tomllib.loads(text)
    change(doc)
    return tomli_w.dumps(doc)


def first_card_action(doc):
    return next(a for a in doc["actions"] if "card" in a and a["kind"] != "mulligan")


BAD = {
    "empty": (lambda t: "", "is empty"),
    "truncated": (lambda t: t[: len(t) // 2] + '\nx = "', "not valid TOML"),
    "not_toml": (lambda t: "this is { not toml", "not valid TOML"),
    "binary": (lambda t: bytes(range(256)) * 4, "not a text file"),
    "huge": (lambda t: "#" * (5 * 1024 * 1024), "more than a save can be"),
    "wrong_format": (lambda t: edit(t, 'format = "weathering-save"', 'format = "chess"'), "not a Weathering save"),
    "newer_version": (lambda t: edit(t, "format_version = 2", "format_version = 7"), "newer Weathering (save format 7)"),
    "version_one": (lambda t: edit(t, "format_version = 2", "format_version = 1"), "older Weathering (save format 1, earlier rules)"),
    "version_zero": (lambda t: edit(t, "format_version = 2", "format_version = 0"), "does not exist"),
    "version_missing": (lambda t: edit(t, "format_version = 2\n", ""), "format_version is missing"),
    "missing_state": (lambda t: doc_edit(t, lambda d: d.pop("state")), "missing: state"),
    "missing_field": (lambda t: doc_edit(t, lambda d: d["state"].pop("hp")), "hp"),
    "wrong_type": (lambda t: doc_edit(t, lambda d: d["state"].update(hp="ten")), "hp"),
    "pv_99": (lambda t: doc_edit(t, lambda d: d["state"].update(hp=99)), "state.hp is 99"),
    "pa_minus_3": (lambda t: doc_edit(t, lambda d: d["state"]["players"][1].update(ap=-3)), "ap is -3"),
    "stored_negative": (lambda t: doc_edit(t, lambda d: d["state"]["players"][1].update(stored_ap=-1)), "stored_ap is negative"),
    "unknown_card": (lambda t: doc_edit(t, lambda d: d["state"]["draw_pile"].__setitem__(0, "licorne#1")), "unknown card 'licorne'"),
    "card_copy_out_of_range": (lambda t: doc_edit(t, lambda d: d["state"]["draw_pile"].__setitem__(0, "mangroves#9")), "does not exist"),
    "card_duplicated": (lambda t: doc_edit(t, lambda d: d["state"]["draw_pile"].__setitem__(0, d["state"]["draw_pile"][1])), "twice"),
    "card_missing": (lambda t: doc_edit(t, lambda d: d["state"]["draw_pile"].pop()), "missing from the snapshot"),
    "hand_edited": (hand_swap, "does not match a replay"),
    "illegal_action": (lambda t: doc_edit(t, lambda d: first_card_action(d).update(card="licorne#1")), "is illegal"),
    "unknown_action": (lambda t: doc_edit(t, lambda d: d["actions"][0].update(kind="teleport")), "actions[0]"),
    "action_extra_key": (lambda t: doc_edit(t, lambda d: d["actions"][0].update(mood="grumpy")), "mood"),
    "unknown_top_key": (lambda t: doc_edit(t, lambda d: d.update(cheats=True)), "unknown keys: cheats"),
    "unknown_state_key": (lambda t: doc_edit(t, lambda d: d["state"].update(cheats=True)), "cheats"),
    "bad_configuration": (lambda t: doc_edit(t, lambda d: (d["setup"].update(configuration="9v9"), d["state"]["setup"].update(configuration="9v9"))), "unknown_configuration"),
    "setup_mismatch": (lambda t: doc_edit(t, lambda d: d["setup"].update(seed=99)), "setup differs"),
    "rng_not_hex": (lambda t: doc_edit(t, lambda d: d["state"].update(rng="zz")), "rng"),
    "meta_not_table": (lambda t: doc_edit(t, lambda d: d.update(meta=3)), "meta must be a table"),
    "meta_hp": (lambda t: doc_edit(t, lambda d: d["meta"].update(hp=29)), "meta.hp is 29"),
    "meta_finished": (lambda t: doc_edit(t, lambda d: d["meta"].update(finished=True)), "meta.finished"),
    "meta_extra": (lambda t: doc_edit(t, lambda d: d["meta"].update(winner="ecologists")), "meta.winner"),
    "latin1": (lambda t: "format = \"weathering-save\" # caf\xe9".encode("latin-1"), "not UTF-8"),
}  # fmt: skip


def write_bad(case, good_text, folder):
    """The bad file of `case` in `folder`: its path, its bytes and the words expected."""
    make, expected = BAD[case]
    data = make(good_text)
    data = data if isinstance(data, bytes) else data.encode("utf-8")
    path = folder / f"{case}.toml"
    path.write_bytes(data)
    return path, data, expected


@pytest.mark.parametrize("case", sorted(BAD))
def test_a_bad_save_is_refused_clearly_and_left_untouched(case, good_text, tmp_path):
    path, data, expected = write_bad(case, good_text, tmp_path)
    with pytest.raises(SaveError) as info:
        read_save(path)
    assert expected in str(info.value), str(info.value)
    assert str(info.value).startswith(str(path))
    assert path.read_bytes() == data


def test_special_files_are_refused(good_text, tmp_path, monkeypatch):
    real = tmp_path / "real.toml"
    real.write_text(good_text, encoding="utf-8")
    link = tmp_path / "link.toml"
    link.symlink_to(real)
    folder = tmp_path / "folder.toml"
    folder.mkdir()
    cases = {link: "symbolic link", folder: "is a folder", tmp_path / "nope.toml": "no such file"}
    for path, expected in cases.items():
        with pytest.raises(SaveError, match=expected):
            read_save(path)

    def denied(self):
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(Path, "read_bytes", denied)
    with pytest.raises(SaveError, match="permission denied"):
        read_save(real)


def test_the_good_text_itself_loads(good_text, tmp_path):
    path = tmp_path / "good.toml"
    path.write_text(good_text, encoding="utf-8")
    assert read_save(path).setup.seats[0].character == "priya"
    assert f"format_version = {FORMAT_VERSION}" in good_text


# ---------------------------------------------------------------- crash safety

WRITER = r"""
import sys
from pathlib import Path
from weathering_tui.storage.atomicfile import atomic_write
path = Path(sys.argv[1])
texts = [Path(sys.argv[2]).read_bytes(), Path(sys.argv[3]).read_bytes()]
print("ready", flush=True)
i = 0
while True:
    atomic_write(path, texts[i % 2])
    i += 1
"""


def test_killing_a_save_at_random_moments_never_tears_the_file(tmp_path, good_text):
    old = good_text.encode()
    new = to_toml(play(Setup.standard("2v1", seed=3), count=80)).encode()
    (tmp_path / "old").write_bytes(old)
    (tmp_path / "new").write_bytes(new)
    target = tmp_path / "game.toml"
    target.write_bytes(old)
    rng = random.Random(5)
    for _ in range(100):
        child = subprocess.Popen(
            [
                sys.executable,
                "-c",
                WRITER,
                str(target),
                str(tmp_path / "old"),
                str(tmp_path / "new"),
            ],
            stdout=subprocess.PIPE,
        )
        child.stdout.readline()
        time.sleep(rng.uniform(0, 0.02))
        os.kill(child.pid, signal.SIGKILL)
        child.wait()
        child.stdout.close()
        assert target.read_bytes() in (old, new)
    read_save(target)


def test_example_saves_load_and_are_the_moments_they_promise():
    from weathering_tui.cli import main

    folder = Path(__file__).parent.parent / "saves" / "examples"
    paths = sorted(folder.glob("*.toml"))
    assert [p.name for p in paths] == ["1v1-last-round.toml", "3v2-phase2-start.toml"]
    assert main(["check", *map(str, paths)]) == 0
    duel = read_save(folder / "1v1-last-round.toml").state
    assert duel.round == 10 and duel.pending.kind == "turn" and duel.pending.seat == 0
    table = read_save(folder / "3v2-phase2-start.toml").state
    assert table.round == 6 and table.phase == 2 and table.pending.seat == 0
    assert not any(p.deck for p in table.players)  # the decks became the hands


def test_check_reports_bad_files_and_exits_2(tmp_path, capsys):
    from weathering_tui.cli import main

    bad = tmp_path / "bad.toml"
    bad.write_text("nope", encoding="utf-8")
    assert main(["check", str(bad)]) == 2
    assert "BAD" in capsys.readouterr().out


@pytest.mark.parametrize("case", sorted(BAD))
def test_load_refuses_each_bad_file_like_check_with_one_line_and_exit_2(case, good_text, tmp_path):
    """`load` runs check's verification before any screen: one line on stderr, exit 2."""
    from weathering_tui import cli

    path, data, expected = write_bad(case, good_text, tmp_path)
    proc = subprocess.run(
        [sys.executable, "-m", "weathering_tui", "load", str(path), "--lang", "en"],
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "XDG_DATA_HOME": str(tmp_path)},
    )
    assert proc.returncode == 2
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and expected in lines[0], proc.stderr
    assert "Traceback" not in proc.stderr and proc.stdout == ""
    assert path.read_bytes() == data
    assert cli.main(["check", str(path)]) == 2


def test_a_meta_only_edit_passes_neither_check_nor_load(good_text, tmp_path, capsys):
    from weathering_tui.cli import main

    path = tmp_path / "edited.toml"
    path.write_text(edit(good_text, "hp = ", "hp = 2", 1), encoding="utf-8")  # [meta] comes first
    assert main(["check", str(path)]) == 2
    assert "meta.hp" in capsys.readouterr().out
    assert main(["load", str(path)]) == 2
    assert "meta.hp" in capsys.readouterr().err


def test_the_default_saves_folder_follows_xdg_data_home(tmp_path, monkeypatch):
    from weathering_tui.storage.savemeta import saves_dir

    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    assert saves_dir() == tmp_path / "data" / "weathering" / "saves"
    monkeypatch.setenv("WEATHERING_SAVES", str(tmp_path / "env"))
    assert saves_dir() == tmp_path / "env"
    assert saves_dir(str(tmp_path / "opt")) == tmp_path / "opt"


def test_the_resume_hint_is_a_command_that_works_from_another_folder(tmp_path, monkeypatch):
    """Quitting prints a command; run from elsewhere, it finds the same save."""
    import shlex

    from weathering_tui.storage.savemeta import resume_command

    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    folder = tmp_path / "mine"
    game = play(Setup.standard("1v1", seed=2), count=12)
    write_save(folder / "evening.toml", game)
    monkeypatch.setattr(sys, "argv", [str(Path(sys.executable).parent / "weathering")])
    words = shlex.split(resume_command("evening", folder))
    assert Path(words[0]).is_absolute() or words[0] == "weathering"
    assert words[-4:] == ["load", "evening", "--saves-dir", str(folder.resolve())]
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    proc = subprocess.run(  # the hint's own program, asked to list that folder
        [*words[:-4], "list", *words[-2:]],
        cwd=elsewhere,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert "evening" in proc.stdout
    # In the default folder the hint needs no --saves-dir.
    default = tmp_path / "data" / "weathering" / "saves"
    assert shlex.split(resume_command("evening", default))[-2:] == ["load", "evening"]


def test_a_save_at_the_setup_is_listed_as_the_setup_not_round_0():
    """`weathering list` and the load screen said "Phase 1 · Round 0/5" for a game at its
    mulligan, where the game's header says "Setup" (a play-test)."""
    from weathering_tui.words import Tr, describe_meta

    meta = {"configuration": "1v1", "phase": 1, "round_in_phase": 0, "rounds_per_phase": 5}
    assert describe_meta(Tr("en"), {**meta, "hp": 15}) == "1v1 · Setup · 15 PV"
    assert "Round 1/5" in describe_meta(Tr("en"), {**meta, "round_in_phase": 1, "hp": 15})


def test_a_finished_save_is_listed_with_who_won():
    """The load screen and `list` said "finished (⚡ Stormy)": a new player could not
    tell who had won (a play-test)."""
    from weathering_tui.words import Tr, describe_meta

    meta = {"configuration": "2v1", "finished": True, "outcome": "orageux", "hp": 11}
    said = describe_meta(Tr("en"), {**meta, "winner": "lobbyists"})
    assert said == "2v1 · finished: the Lobbyistes won (⚡ Stormy) · 11 PV"
    assert "les Lobbyistes ont gagné" in describe_meta(Tr("fr"), {**meta, "winner": "lobbyists"})
    assert describe_meta(Tr("en"), meta) == "2v1 · finished (⚡ Stormy) · 11 PV"
    # the load list's narrow column: who won, the forecast left to the preview
    short = describe_meta(Tr("en"), {**meta, "winner": "lobbyists"}, short=True)
    assert short == "2v1 · the Lobbyistes won · 11 PV"


def test_the_load_list_shortens_a_broken_save_s_reason_between_words():
    from weathering_tui.tui.screens.load import _short

    said = "illisible : n'est pas du TOML valide (Expected '=' after a key in a key/value pair)"
    assert _short(said, 36) == "illisible : n'est pas du TOML valide"
    long = "unreadable: a card that no set of rules holds, at the third action of seat two"
    cut = _short(long, 36)
    assert len(cut) <= 36 and cut.endswith("…") and long.startswith(cut[:-1])
    assert long[len(cut) - 1] == " "  # cut between two words, never mid-word
    assert _short("short", 36) == "short"
