"""The words wing: every French and English sentence of the app lives in `fr.py` and
`en.py`; `Tr` gives them in one language, `describe` says game things in words. No
Textual here (import-linter keeps it so)."""

from __future__ import annotations

import os
import re
from typing import TYPE_CHECKING

from ..engine import card_id
from . import en, fr

if TYPE_CHECKING:
    from ..content import Content


LANGS = ("fr", "en")
STRINGS = {"fr": fr.STRINGS, "en": en.STRINGS}
REFUSALS = {"fr": fr.REFUSALS, "en": en.REFUSALS}
WAITING = {"fr": fr.WAITING, "en": en.WAITING}
HELP_KEYS = {"fr": fr.HELP_KEYS, "en": en.HELP_KEYS}
LEGEND = {"fr": fr.LEGEND, "en": en.LEGEND}
RULES = {"fr": fr.RULES, "en": en.RULES}
SAVE_PROBLEMS = {"fr": fr.SAVE_PROBLEMS, "en": en.SAVE_PROBLEMS}


def save_problem(lang: str, code: str, params: dict) -> str:
    """Why a save cannot be used, in `lang` (savemeta.SaveError's code and values)."""
    table = SAVE_PROBLEMS.get(lang, SAVE_PROBLEMS["en"])
    return table[code].format(**params) if code in table else code


# "de" before a vowel or a mute h becomes "d'" (names come from players and rules).
ELISION = re.compile(r"(?<![\w'])de (?=[AEIOUYHÉÈÊÀÂÎÔaeiouyhéèêàâîô])")

# French puts a space before a colon; a non-breaking one, so that a line never starts
# with ":" (the app's wrapping keeps "\u00a0" unbroken: tui/typography.py).
NBSP = "\u00a0"
SPACED_COLON = re.compile(r" +:(?=\s|$)")


def french_colons(text: str) -> str:
    """`text` with the space before each colon made non-breaking ("Main : …")."""
    return SPACED_COLON.sub(NBSP + ":", text)


def detect_lang(environ=None) -> str:
    """fr* in LC_ALL, LC_MESSAGES or LANG (first one set) gives French, anything else English."""
    environ = os.environ if environ is None else environ
    for key in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = environ.get(key)
        if value:
            return "fr" if value.lower().startswith("fr") else "en"
    return "en"


def describe_meta(tr, meta: dict) -> str:
    """A save's one-line summary from its [meta]: the load screen and `list` agree."""
    if meta.get("finished"):
        state = tr("load.finished", band=tr("band." + meta.get("outcome", "orageux")))
    else:
        state = tr(
            "phase_turn",
            phase=meta.get("phase", "?"),
            turn=meta.get("round_in_phase", "?"),
            of=meta.get("rounds_per_phase", "?"),
        )
    return f"{meta.get('configuration', '?')} · {state} · {meta.get('hp', '?')} PV"


def plural(text: str, n: int) -> str:
    """ "carte(s)" said right for `n`: "1 carte", "2 cartes" (and "card(s)" likewise)."""
    return text.replace("(s)", "" if abs(n) == 1 else "s")


class Tr:
    """Translations for one language over one set of rules."""

    def __init__(self, lang: str, content: Content | None = None, *, screen: bool = True):
        self.lang = lang if lang in LANGS else "en"
        self._content = content
        self.strings = STRINGS[self.lang]
        # On a screen the French colon's space is unbreakable; a command's printed lines
        # keep a plain space (the terminal cuts them anywhere, and scripts grep them).
        self.nbsp = self.lang == "fr" and screen

    @property
    def content(self) -> Content:
        """The rules files, loaded on first use."""
        if self._content is None:
            from ..content import default_content

            self._content = default_content()
        return self._content

    def __call__(self, key: str, **values) -> str:
        text = self.strings[key].format(**values)
        if isinstance(values.get("n"), int):
            text = plural(text, values["n"])
        if self.lang == "fr" and values:
            text = ELISION.sub("d'", text)  # "Main d'Insatiable", "la place d'Amir"
        return self.colons(text)

    def colons(self, text: str) -> str:
        """`text` with its French colons' spaces unbreakable, on a screen."""
        return french_colons(text) if self.nbsp else text

    def decimal(self, value: float, places: int = 1) -> str:
        """A number with its decimals as the language writes it: "1,5" in French."""
        text = f"{value:.{places}f}"
        return text.replace(".", ",") if self.lang == "fr" else text

    @property
    def colon(self) -> str:
        """ "X : y" in French (on a screen the space is unbreakable), "X: y" in English."""
        if self.lang != "fr":
            return ": "
        return NBSP + ": " if self.nbsp else " : "

    def card(self, instance_or_id: str) -> str:
        card = self.content.cards[card_id(instance_or_id)]
        return card.name_fr if self.lang == "fr" else card.name_en

    def card_text(self, instance_or_id: str) -> str:
        card = self.content.cards[card_id(instance_or_id)]
        return self.colons(card.text_fr) if self.lang == "fr" else card.text_en

    def event(self, instance_or_id: str) -> str:
        event = self.content.events[card_id(instance_or_id)]
        return event.name_fr if self.lang == "fr" else event.name_en

    def event_text(self, instance_or_id: str) -> str:
        event = self.content.events[card_id(instance_or_id)]
        return self.colons(event.text_fr) if self.lang == "fr" else event.text_en

    def power(self, character_id: str) -> str:
        power = self.content.characters[character_id].power
        return power.name_fr if self.lang == "fr" else power.name_en

    def power_by_id(self, power_id: str) -> str:
        for char in self.content.characters.values():
            if char.power.id == power_id:
                return self.power(char.id)
        return power_id

    def power_text(self, character_id: str) -> str:
        power = self.content.characters[character_id].power
        return self.colons(power.text_fr) if self.lang == "fr" else power.text_en

    def role(self, character_id: str) -> str:
        char = self.content.characters[character_id]
        return char.role_fr if self.lang == "fr" else char.role_en

    def source(self, source: str) -> str:
        """A log source: a card, an event, a power id or a rule word."""
        if source in self.content.cards:
            return self.card(source)
        if source in self.content.events:
            return self.event(source)
        for char in self.content.characters.values():
            if char.power.id == source:
                return self.power(char.id)
        return source


def render_refusal(tr: Tr, exc, players=()) -> str:
    """An `IllegalAction` in the player's language; `players` (a view's) names the seats."""
    values = dict(exc.params)
    try:  # (a refusal from a table server names what this terminal may not know)
        if "card" in values:
            values["card"] = tr.card(values["card"])
        if "power" in values:
            values["power"] = tr.power_by_id(values["power"])
    except (KeyError, TypeError, ValueError):
        return REFUSALS[tr.lang]["not_an_option"]
    for key in ("waiting", "expected"):
        if key in values:
            values[key] = WAITING[tr.lang].get(values[key], WAITING[tr.lang]["other"])
    partner = values.get("partner")
    if isinstance(partner, int):
        values["partner"] = players[partner].name if 0 <= partner < len(players) else partner
    text = REFUSALS[tr.lang].get(exc.code, REFUSALS[tr.lang]["not_an_option"])
    try:
        return tr.colons(text.format(**values))
    except (KeyError, IndexError, ValueError):  # a refusal without its details
        return REFUSALS[tr.lang]["not_an_option"]
