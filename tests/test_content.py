"""rules/*.toml load into valid definitions; bad content gets one clear line per problem."""

import shutil
from pathlib import Path

import pytest

from weathering_tui.content import RULES_DIR, ContentError, default_content, load_content
from weathering_tui.content import effects as fx


def test_the_rules_files_load_with_every_card_character_and_event():
    content = default_content()
    assert len(content.cards) == 50 and sum(c.copies for c in content.cards.values()) == 76
    assert len(content.events) == 18 and sum(e.copies for e in content.events.values()) == 20
    assert sorted(content.configurations) == ["1v1", "2v1", "2v2", "3v1", "3v2", "4v1"]
    sides = [c.side for c in content.characters.values()]
    assert sides.count("ecologist") == 6 and sides.count("lobbyist") == 4
    labels = {c.id: c.label for c in content.characters.values() if c.side == "lobbyist"}
    assert labels == {
        "fossilise": "balanced",
        "au_bras_long": "balanced",
        "aux_poches_pleines": "hard",
        "insatiable": "deadly",
    }
    assert content.cards["retroaction_climatique"].cartouches == (
        (fx.Heal(2),),
        (fx.Damage(2),),
    )
    assert content.cards["zero_dechet"].cartouches[0][0].exclude == ("zero_dechet",)


def test_every_card_cost_follows_the_cost_curve():
    """§6.2: each printed cost is within ±1 of the curve value of its best cartouche."""
    value = {
        fx.Heal: lambda e, n: e.amount,
        fx.Damage: lambda e, n: e.amount,
        fx.Draw: lambda e, n: 0.75 * e.amount,
        fx.TakeFromDiscard: lambda e, n: e.amount,
        fx.DiscardRandom: lambda e, n: e.amount,
        fx.LoseAp: lambda e, n: 0.5 * e.amount * (2 if e.who == "each_ecologist" else n),
        fx.Cancel: lambda e, n: 2,
    }
    for card in default_content().cards.values():
        best = max(
            sum(value.get(type(e), lambda e, n: 0.5)(e, 1) for e in cartouche)
            for cartouche in card.cartouches
        )
        assert abs(card.cost - best) <= 1.5, card.id


@pytest.fixture
def rules(tmp_path) -> Path:
    target = tmp_path / "rules"
    shutil.copytree(RULES_DIR, target)
    return target


def problems_after(rules: Path, file: str, old: str, new: str) -> list[str]:
    path = rules / file
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    with pytest.raises(ContentError) as info:
        load_content(rules)
    return info.value.problems


CASES = [
    ("cards.toml", 'op = "heal", amount = 1 }', 'op = "zap", amount = 1 }', "unknown effect op 'zap'"),
    ("cards.toml", "cost = 2\ncopies = 2", 'cost = "two"\ncopies = 2', "cost"),
    ("cards.toml", "cost = 1\ncopies = 2", "cost = -1\ncopies = 2", "cost"),
    ("cards.toml", "copies = 3", "copies = 4", "copies add up to 77"),
    ("cards.toml", 'id = "mobilite_douce"', 'id = "potager_partage"', "duplicate id 'potager_partage'"),
    ("cards.toml", 'type = "terrestre"', 'type = "volcanique"', "type"),
    ("cards.toml", 'cost = 1\n', 'cost = 1\nflavour = "x"\n', "extra fields found (flavour)"),
    ("cards.toml", '[{ op = "heal", amount = 1 }]', '[{ op = "group_choice", options = [] }]', "for events only"),
    ("events.toml", 'continuous = [{ op = "suspend_free_draw" }]', 'continuous = [{ op = "heal", amount = 1 }]', "not a continuous modifier"),
    ("characters.toml", 'label = "deadly"', 'label = "spicy"', "label"),
    ("configurations.toml", "start_hp = 15", "start_hp = 45", "start_hp"),
    ("configurations.toml", "[constants]", "[constantz]", "[constants] table is missing"),
]  # fmt: skip


@pytest.mark.parametrize(("file", "old", "new", "expected"), CASES)
def test_bad_content_is_reported_by_file_entry_and_field(rules, file, old, new, expected):
    problems = problems_after(rules, file, old, new)
    assert any(expected in p for p in problems), problems
    assert all(p.split(":")[0].endswith(".toml") for p in problems), problems


def test_broken_toml_and_missing_files_are_one_line_each(rules):
    (rules / "cards.toml").write_text("[[card]\nid = ", encoding="utf-8")
    (rules / "events.toml").unlink()
    with pytest.raises(ContentError) as info:
        load_content(rules)
    problems = info.value.problems
    assert len(problems) == 2
    assert (
        "cards.toml: not valid TOML" in problems[0] or "cards.toml: not valid TOML" in problems[1]
    )
    assert any("events.toml: file not found" in p for p in problems)
    assert all("\n" not in p for p in problems)


def test_every_power_level_lowers_its_cost():
    """A level that changes nothing would break "each level lowers the cost"
    (rules-reference §11.7, [RB 61]): costs fall strictly, and never below 0."""
    from weathering_tui.content import default_content

    for char in default_content().characters.values():
        costs = [level.cost for level in char.power.levels]
        assert len(costs) == 3 and costs[-1] >= 0, char.id
        assert all(costs[i] > costs[i + 1] for i in range(len(costs) - 1)), (char.id, costs)
