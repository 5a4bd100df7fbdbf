"""English names the side one way (issue #29 item 9: it said both "Lobbyist" and
"Lobbyiste"): "Lobbyiste", like "Écolo", is the game's word in both languages."""

import re
from pathlib import Path

from helpers import shown_texts

from weathering_tui.play.learn import load_script
from weathering_tui.words import Tr

ROOT = Path(__file__).resolve().parent.parent
ENGLISH_ONLY = re.compile(r"\bLobbyists?\b")


def english_texts() -> list[str]:
    return shown_texts("en")


def test_english_says_lobbyiste_never_lobbyist():
    said = [text for text in english_texts() if ENGLISH_ONLY.search(text)]
    assert not said, said
    assert any("Lobbyiste" in text for text in english_texts())


def test_the_readme_says_lobbyiste_too():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert not ENGLISH_ONLY.findall(readme)


# English keeps the game's PA and PV (its glossary says "PA: action points"), as it keeps
# Écolo and Lobbyiste: never AP, VP or HP beside them.
OTHER_UNITS = re.compile(r"\b(AP|VP|HP)\b|\d+\s*(AP|VP|HP)\b")


def test_english_says_pa_and_pv_never_ap_vp_or_hp():
    texts = english_texts() + [
        lesson.text["en"] + lesson.title["en"] for lesson in load_script().lessons
    ]
    said = [text for text in texts if OTHER_UNITS.search(text)]
    assert not said, said
    assert any(re.search(r"\bPA\b", t) for t in texts) and any(
        re.search(r"\bPV\b", t) for t in texts
    )
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert not OTHER_UNITS.findall(readme)


def test_a_store_announced_says_its_pa_once():
    """ "Amir announces: stores 3 PA", not "stores 3 PA · 3 PA"; other moves say their cost."""
    from weathering_tui.engine import new_game, view_for
    from weathering_tui.sim.simulate import setup_for
    from weathering_tui.words.describe import announcement

    view = view_for(new_game(setup_for("1v1", seed=3)), 0)
    tr = Tr("en")
    store = announcement(tr, view, {"action": "store_ap", "seat": 0, "amount": 3, "cost": 3})
    assert store.endswith("stores 3 PA"), store
    draw = announcement(tr, view, {"action": "draw", "seat": 0, "cost": 1})
    assert draw.endswith(" · 1 PA"), draw
