"""The words wing: every French and English sentence of the app is data, in `fr.toml`
and `en.toml` beside this module (screens, the command line, the tables, refusals,
help); `Tr` gives them in one language, `describe` says game things in words. No
Textual here (import-linter keeps it so)."""

from __future__ import annotations

import os
import re
import tomllib
from pathlib import Path
from typing import TYPE_CHECKING

from ..engine import card_id

if TYPE_CHECKING:
    from ..content import Content


LANGS = ("fr", "en")


def _read(lang: str) -> dict:
    """One language's words, as the app is installed with them (a file of its own)."""
    return tomllib.loads((Path(__file__).parent / f"{lang}.toml").read_text("utf-8"))


_WORDS = {lang: _read(lang) for lang in LANGS}
STRINGS: dict[str, dict[str, str]] = {lang: w["strings"] for lang, w in _WORDS.items()}
# Why an action is refused: one sentence per `IllegalAction` code.
REFUSALS: dict[str, dict[str, str]] = {lang: w["refusals"] for lang, w in _WORDS.items()}
# What a pending decision waits for, in a refusal ("it is not your decision (…)").
WAITING: dict[str, dict[str, str]] = {lang: w["waiting"] for lang, w in _WORDS.items()}
# The help: keys (by the action of keymap.KEYS), the legend of symbols, the rules in short.
HELP_KEYS: dict[str, dict[str, tuple[str, str]]] = {
    lang: {k: (v[0], v[1]) for k, v in w["help_keys"].items()} for lang, w in _WORDS.items()
}
LEGEND: dict[str, list[tuple[str, str]]] = {
    lang: [(a, b) for a, b in w["legend"]] for lang, w in _WORDS.items()
}
RULES: dict[str, str] = {lang: w["rules"] for lang, w in _WORDS.items()}
# The replay's keys, as its help lists them.
REPLAY_KEYS: dict[str, list[tuple[str, str]]] = {
    lang: [(a, b) for a, b in w["replay_keys"]] for lang, w in _WORDS.items()
}
# Why a save file cannot be used (savemeta.SaveError): one sentence per code.
SAVE_PROBLEMS: dict[str, dict[str, str]] = {lang: w["save_problems"] for lang, w in _WORDS.items()}
# argparse's own English messages, as (pattern, replacement) in French.
ARGPARSE_FR: list[tuple[str, str]] = [(a, b) for a, b in _WORDS["fr"]["argparse"]]
# The command line's help in French, by its English sentence (the code's).
CLI_HELP_FR: dict[str, str] = _WORDS["fr"]["cli_help"]


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


def saved_at(updated: str) -> str:
    """When a save was written, as people read a date: "2026-12-07 09:20 UTC" for the
    "2026-12-07T09:20:01Z" its [meta] keeps (a play-test read the raw stamp in `list`).
    Anything else is shown as it is."""
    date, sep, time = updated.partition("T")
    if not sep or not time.endswith("Z") or len(time) < 6:
        return updated
    return f"{date} {time[:5]} UTC"


def describe_meta(tr, meta: dict, short: bool = False) -> str:
    """A save's one-line summary from its [meta]: the load screen and `list` agree.
    `short`: a finished game without its forecast (the load list's narrow column broke
    "(🌞 Sunny)" over two lines; its preview says it whole)."""
    if meta.get("finished"):
        band = tr("band." + meta.get("outcome", "orageux"))
        winner = meta.get("winner")
        if winner in ("ecologists", "lobbyists"):  # who won: the band alone did not say
            side = tr("side." + winner)
            state = (
                tr("load.won_short", side=side) if short else tr("load.won", side=side, band=band)
            )
        else:  # (a save written before its [meta] named the winner)
            state = tr("load.finished", band=band)
    elif meta.get("round_in_phase") == 0:  # the mulligan, before the first round
        state = tr("mulligan_stage")
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

    def _local(self, record, field: str) -> str:
        """A rules record's `field` in this language (`name_fr`, `text_en`…); a text's
        French colons as a screen wants them."""
        return self.colons(getattr(record, f"{field}_{self.lang}"))

    def card(self, instance_or_id: str) -> str:
        return self._local(self.content.cards[card_id(instance_or_id)], "name")

    def card_text(self, instance_or_id: str) -> str:
        return self._local(self.content.cards[card_id(instance_or_id)], "text")

    def event(self, instance_or_id: str) -> str:
        return self._local(self.content.events[card_id(instance_or_id)], "name")

    def event_text(self, instance_or_id: str) -> str:
        return self._local(self.content.events[card_id(instance_or_id)], "text")

    def power(self, character_id: str) -> str:
        return self._local(self.content.characters[character_id].power, "name")

    def power_by_id(self, power_id: str) -> str:
        for char in self.content.characters.values():
            if char.power.id == power_id:
                return self.power(char.id)
        return power_id

    def power_text(self, character_id: str) -> str:
        return self._local(self.content.characters[character_id].power, "text")

    def role(self, character_id: str) -> str:
        return self._local(self.content.characters[character_id], "role")

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
