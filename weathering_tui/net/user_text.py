"""Strings users type (names, table names, chat lines, codes), made safe to show.

Every such string is shown to other players as plain text; `clean` makes any string
harmless to show, and `table_name_problem` holds a table's name, which its creator
chooses for everyone to read, to more.
"""

from __future__ import annotations

import unicodedata

NAME_MAX = 24  # player and table names


def _visible(ch: str) -> str:
    """A control character as its visible picture (ESC shows as ␛), so it is shown
    literally and can drive no terminal; format characters (bidi overrides) go."""
    code = ord(ch)
    if code < 0x20:
        return chr(0x2400 + code)
    if code == 0x7F:
        return "\u2421"
    if 0x80 <= code <= 0x9F:
        return "\ufffd"
    category = unicodedata.category(ch)
    if category in ("Cf", "Cs", "Co") or ch in FILLERS:
        return ""  # invisible: a name could hide behind it
    if category in ("Zs", "Zl", "Zp"):
        return " "  # every space is a plain one (then collapsed)
    return ch


FILLERS = frozenset("\u115f\u1160\u3164\uffa0\u2800")  # blank-looking letters


def clean(text: str, limit: int) -> str:
    """A user string made safe to show: control characters as visible pictures (no
    terminal escape gets through), no bidirectional overrides, spaces collapsed, at most
    `limit` characters. Markup is not interpreted where it is shown (plain text)."""
    text = unicodedata.normalize("NFC", str(text)).replace("\t", " ").replace("\n", " ")
    text = "".join(_visible(ch) for ch in text)
    return " ".join(part for part in text.split(" ") if part)[:limit]


def table_name_problem(name) -> str | None:
    """Why `name` cannot name a table (a word key's last part), or None if it can.

    A table's name is chosen by its creator and shown to every player, so it is held to
    more than `clean`: 1 to NAME_MAX characters and cells, letters (accents and other
    scripts too), digits, punctuation and common signs, single spaces between words, and
    at least one letter or digit. No control or format character, no picture or emoji
    (their widths differ between terminals and would shift the lobby's columns), no
    blank-looking letter, and nothing that normal form would change."""
    if not isinstance(name, str) or not name.strip():
        return "empty"
    if len(name) > NAME_MAX or _cells(name) > NAME_MAX:
        return "long"
    if name != name.strip() or "  " in name:
        return "spaces"
    marks = 0
    for ch in name:
        category = unicodedata.category(ch)
        if ch == " " or category[0] in "LNP" or category in ("Sm", "Sc", "Sk"):
            marks = 0
            if ch in FILLERS:
                return "char"
            continue
        if category in ("Mn", "Mc") and marks < 2:  # an accent on the letter before it
            marks += 1
            continue
        return "char"
    if unicodedata.category(name[0]) in ("Mn", "Mc") or unicodedata.normalize("NFC", name) != name:
        return "char"
    if not any(unicodedata.category(ch)[0] in "LN" for ch in name):
        return "word"
    return None


def _cells(text: str) -> int:
    return sum(2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1 for ch in text)


def clean_name(text: str) -> str:
    return clean(text, NAME_MAX) or "?"
