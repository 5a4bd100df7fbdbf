"""English names the side one way (issue #29 item 9: it said both "Lobbyist" and
"Lobbyiste"): "Lobbyiste", like "Écolo", is the game's word in both languages."""

import re
from pathlib import Path

from weathering_tui.words import Tr, en

ROOT = Path(__file__).resolve().parent.parent
ENGLISH_ONLY = re.compile(r"\bLobbyists?\b")


def english_texts() -> list[str]:
    tr = Tr("en")
    texts = list(en.STRINGS.values()) + list(en.REFUSALS.values()) + [en.RULES]
    texts += [f"{k} {v}" for k, v in en.HELP_KEYS + en.LEGEND]
    texts += [tr.card(c) + " " + tr.card_text(c) for c in tr.content.cards]
    texts += [tr.event(e) + " " + tr.event_text(e) for e in tr.content.events]
    texts += [
        tr.power(c) + " " + tr.power_text(c) + " " + tr.role(c) for c in tr.content.characters
    ]
    return texts


def test_english_says_lobbyiste_never_lobbyist():
    said = [text for text in english_texts() if ENGLISH_ONLY.search(text)]
    assert not said, said
    assert any("Lobbyiste" in text for text in english_texts())


def test_the_readme_says_lobbyiste_too():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert not ENGLISH_ONLY.findall(readme)
