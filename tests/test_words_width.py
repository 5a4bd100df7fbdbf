"""Every word the screens show has one width on any terminal.

A variation selector (U+FE0F) asks a terminal to draw the symbol before it as a wide
emoji, while Textual counts that symbol one cell wide: the line then pushes its
border one cell right (the Characters help tab showed it on "⚖️ balanced"). A joiner
(U+200D) makes the same disagreement. The screens say ⚖ and ☠ without the selector."""

import pytest
from helpers import shown_texts
from rich.cells import cell_len

from weathering_tui.words import Tr

AMBIGUOUS = {"\ufe0f": "emoji variation selector", "\u200d": "zero-width joiner"}


def _narrow_pictograph(ch: str) -> bool:
    """A pictograph of the emoji planes (U+1F000 on) that Textual counts one cell wide:
    terminals draw most of them two wide (🌧 Stormy moved the load list's border in
    tmux). Those wide by themselves (East Asian width W: 🔥 🌞 ⚡ 🌀) are two everywhere."""
    import unicodedata

    return ord(ch) >= 0x1F000 and unicodedata.east_asian_width(ch) != "W"


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_no_word_has_a_width_terminals_disagree_on(lang):
    found = [
        (text[:40], name)
        for text in shown_texts(lang)
        for ch, name in AMBIGUOUS.items()
        if ch in text
    ]
    assert not found, found


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_no_word_has_a_pictograph_counted_narrower_than_drawn(lang):
    found = sorted({ch for text in shown_texts(lang) for ch in text if _narrow_pictograph(ch)})
    assert not found, found


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_the_difficulty_labels_keep_their_symbols(lang):
    tr = Tr(lang)
    labels = [tr("label." + name) for name in ("balanced", "hard", "deadly")]
    assert [label.split()[0] for label in labels] == ["⚖", "🔥", "☠"]
    # each symbol's width as Textual counts it: ⚖ and ☠ one cell, 🔥 two (wide by itself)
    assert [cell_len(label.split()[0]) for label in labels] == [1, 2, 1]
