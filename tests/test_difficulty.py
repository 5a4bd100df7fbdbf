"""The game's difficulty is its Lobbyistes' label (rules-reference §2.2, [RB 191]): a new
game deals them for the chosen level, the fair one by default."""

import pytest

from weathering_tui.content import default_content
from weathering_tui.engine import LABELS, SeatSetup, Setup, difficulty_of, new_game, with_difficulty

CONTENT = default_content()
CONFIGS = ("1v1", "2v1", "3v1", "4v1", "2v2", "3v2")


def lobbyists(setup):
    return [s.character for s in setup.seats if s.side == "lobbyist"]


@pytest.mark.parametrize("config", CONFIGS)
@pytest.mark.parametrize("level", LABELS)
def test_a_level_deals_lobbyistes_whose_harshest_label_is_that_level(config, level):
    seen = set()
    for seed in range(40):
        setup = with_difficulty(Setup.standard(config, seed=seed), level, CONTENT)
        chars = lobbyists(setup)
        assert "random" not in chars and len(set(chars)) == len(chars)
        labels = [CONTENT.characters[c].label for c in chars]
        assert labels[0] == level  # the first one carries the level
        assert all(label == "balanced" for label in labels[1:])  # partners are ⚖️
        assert difficulty_of(setup, CONTENT) == level
        new_game(setup, CONTENT)  # a legal setup
        seen.add(chars[0])
    wanted = {
        c.id for c in CONTENT.characters.values() if c.side == "lobbyist" and c.label == level
    }
    assert seen == wanted  # every character of the level is dealt, by the seed


def test_the_deal_follows_the_seed_and_leaves_ecologists_alone():
    a = with_difficulty(Setup.standard("3v2", seed=5), "balanced", CONTENT)
    b = with_difficulty(Setup.standard("3v2", seed=5), "balanced", CONTENT)
    assert a == b
    assert [s.character for s in a.seats if s.side == "ecologist"] == ["random"] * 3


def test_a_chosen_lobbyiste_sets_the_level_and_the_other_gets_a_fair_partner():
    seats = (
        SeatSetup("ecologist"),
        SeatSetup("ecologist"),
        SeatSetup("lobbyist", "random"),
        SeatSetup("lobbyist", "insatiable"),
    )
    for seed in range(10):
        setup = with_difficulty(Setup("2v2", seats, seed=seed), "balanced", CONTENT)
        assert lobbyists(setup)[1] == "insatiable"
        assert CONTENT.characters[lobbyists(setup)[0]].label == "balanced"
        assert difficulty_of(setup, CONTENT) == "deadly"


def test_a_lobbyiste_by_name_is_a_difficulty_too():
    setup = with_difficulty(Setup.standard("1v1", seed=3), "aux_poches_pleines", CONTENT)
    assert lobbyists(setup) == ["aux_poches_pleines"]
    assert difficulty_of(Setup.standard("1v1", seed=3), CONTENT) is None  # still random


def test_the_command_line_offers_every_level_and_every_lobbyiste():
    from weathering_tui.cli import DIFFICULTIES

    names = {c.id for c in CONTENT.characters.values() if c.side == "lobbyist"}
    assert set(DIFFICULTIES) == set(LABELS) | names


async def test_the_new_game_screen_defaults_to_the_fair_level_and_changes_it():
    from weathering_tui.tui.app import WeatheringApp
    from weathering_tui.tui.screens.new_game import NewGameForm

    app = WeatheringApp(lang="en", saves_dir=None, autosave=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("enter")  # title → new game
        await pilot.pause()
        form = app.screen.query_one(NewGameForm)
        fair = CONTENT.configurations[form.config].recommended_label
        assert form.level == fair and "recommended" in str(form.render())
        assert difficulty_of(form.setup(), CONTENT) == fair
        await pilot.press("down", "right")  # the difficulty row, one step harsher
        harsher = LABELS[(LABELS.index(fair) + 1) % len(LABELS)]
        assert form.level == harsher
        assert difficulty_of(form.setup(), CONTENT) == harsher
