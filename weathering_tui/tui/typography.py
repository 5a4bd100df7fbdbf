"""Line breaking that keeps a non-breaking space unbroken.

French puts a space before a colon, and `words` makes it U+00A0 so that ":" never starts
a line. Textual (and Rich) split words on `\\s`, which in Python matches U+00A0 too: a
French colon was wrapped alone onto the next line (issue #29). Their word patterns are
replaced, once, by the same patterns without U+00A0 among the spaces; a test
(tests/ui/test_typography.py) fails if a Textual upgrade stops reading them."""

from __future__ import annotations

import re

# A word: anything but a breaking space (U+00A0 is part of the word), then its spaces.
TEXTUAL_CHUNK = re.compile(r"[\S\u00a0]+[^\S\u00a0]*|[^\S\u00a0]+")
RICH_WORD = re.compile(r"[^\S\u00a0]*[\S\u00a0]+[^\S\u00a0]*")


def keep_nbsp_unbroken() -> None:
    """Make Textual's and Rich's wrapping treat U+00A0 as part of a word."""
    import rich._wrap
    import textual._wrap

    textual._wrap.re_chunk = TEXTUAL_CHUNK
    rich._wrap.re_word = RICH_WORD


keep_nbsp_unbroken()
