"""Which file a loaded game's autosave writes. Loading an earlier named save of a game
went on in that game's autosave, replacing its later moment at once (a play-test): it
now goes on in a new autosave, and the later moment stays where it was."""

from pathlib import Path

from test_savefile import play

from weathering_tui.engine import Setup
from weathering_tui.play import LocalSession
from weathering_tui.storage.savefile import autosave_name, read_save, write_save


def _saved(folder: Path, name: str, game) -> Path:
    return write_save(folder / f"{name}.toml", game)


def test_an_earlier_named_save_goes_on_in_a_new_autosave(tmp_path):
    early = play(Setup.standard("2v1", seed=4), count=30)
    own = autosave_name(early)
    _saved(tmp_path, "checkpoint", early)
    later = play(Setup.standard("2v1", seed=4), count=60)
    later_bytes = _saved(tmp_path, own, later).read_bytes()

    loaded = read_save(tmp_path / "checkpoint.toml")
    session = LocalSession(loaded, tmp_path, loaded_from=tmp_path / "checkpoint.toml")
    assert session.save_name == f"{own}-2"
    session.autosave_now()  # what loading does at once
    assert (tmp_path / f"{own}.toml").read_bytes() == later_bytes  # the later moment stays
    assert len(read_save(tmp_path / f"{own}-2.toml").actions) == 30

    # Loaded again, that branch goes on in its own file; a third load branches again.
    again = LocalSession(
        read_save(tmp_path / f"{own}-2.toml"), tmp_path, loaded_from=tmp_path / f"{own}-2.toml"
    )
    assert again.save_name == f"{own}-2"
    other = play(Setup.standard("2v1", seed=4), count=45)
    _saved(tmp_path, f"{own}-2", other)
    third = LocalSession(
        read_save(tmp_path / "checkpoint.toml"), tmp_path, loaded_from=tmp_path / "checkpoint.toml"
    )
    assert third.save_name == f"{own}-3"


def test_a_named_save_of_the_autosave_s_own_moment_goes_on_in_it(tmp_path):
    game = play(Setup.standard("1v1", seed=2), count=20)
    own = autosave_name(game)
    _saved(tmp_path, own, game)
    _saved(tmp_path, "mine", game)  # ctrl+s: the same moment in both
    session = LocalSession(
        read_save(tmp_path / "mine.toml"), tmp_path, loaded_from=tmp_path / "mine.toml"
    )
    assert session.save_name == own


def test_a_game_loaded_from_its_autosave_or_started_goes_on_in_it(tmp_path):
    game = play(Setup.standard("1v1", seed=2), count=20)
    own = autosave_name(game)
    path = _saved(tmp_path, own, game)
    assert LocalSession(read_save(path), tmp_path, loaded_from=path).save_name == own
    assert LocalSession(game, tmp_path).save_name == own
