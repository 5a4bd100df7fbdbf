"""French colons never start a line (issue #29 item 9): `words` puts a non-breaking
space before each French colon, and the app's wrapping (tui/typography.py) keeps it."""

import pytest
from textual.content import Content
from textual.widgets import Static

from weathering_tui.tui.app import WeatheringApp
from weathering_tui.words import NBSP, STRINGS, Tr


def french_texts() -> list[str]:
    tr = Tr("fr")
    texts = [tr(key) for key, text in STRINGS["fr"].items() if "{" not in text]
    texts += [tr.card(c) + tr.colon + tr.card_text(c) for c in tr.content.cards]
    texts += [tr.event_text(e) for e in tr.content.events]
    texts += [tr.power(c) + tr.colon + tr.power_text(c) for c in tr.content.characters]
    return texts


def test_every_french_colon_has_a_non_breaking_space_before_it():
    for text in french_texts():
        assert " :" not in text, text
    assert Tr("fr").colon == NBSP + ": " and Tr("en").colon == ": "


@pytest.mark.parametrize("width", range(20, 79, 2))
def test_no_wrapped_line_starts_with_a_colon(width):
    for text in french_texts():
        for line in Content(text).wrap(width)[1:]:
            assert not line.plain.startswith(":"), (width, text)


async def test_a_french_sentence_on_screen_keeps_its_colon():
    """At 70 columns this sentence wrapped as '… que vous n'avez pas' / ': la seule …'."""
    app = WeatheringApp(lang="fr", saves_dir=None, pace=0, autosave=False)
    async with app.run_test(size=(80, 24)) as pilot:
        text = Static(app.tr("choice.only_one", option="défausser 1 carte"))
        text.styles.width = 70
        await app.screen.mount(text)
        await pilot.pause()
        lines = [strip.text.rstrip() for strip in text.render_lines(text.region.reset_offset)]
        assert lines[0].endswith("n'avez") and lines[1].startswith("pas\u00a0:"), lines
