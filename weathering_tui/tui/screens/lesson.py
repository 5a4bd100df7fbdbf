"""A lesson's box in the guided game: a title, its words, and Enter to go on, placed
where it hides neither the panes it speaks of nor a prompt (a lesson comes before its
move's dialog, never over it)."""

from __future__ import annotations

from rich.markup import escape as escape_markup
from textual.containers import Vertical

from .choice import ChoiceModal

MIN_ROWS = 8  # the box's two borders (title above, keys below) and six lines of words
MIN_COLUMNS = 40


def place_away_from(regions, width: int, height: int) -> tuple[str, int]:
    """Where a box shows none of `regions` (the panes a lesson points at): ("bottom",
    rows), ("top", rows), ("left", columns) or ("right", columns), the roomiest that is
    big enough; ("bottom", height) when it points at nothing."""
    if not regions:
        return "bottom", height
    top = min(r.y for r in regions)
    bottom = max(r.y + r.height for r in regions)
    left = min(r.x for r in regions)
    right = max(r.x + r.width for r in regions)
    # Rows under the panes keep the box whole width; columns beside them keep every row.
    sides = [
        ("bottom", height - bottom, (height - bottom) * width),
        ("top", top, top * width),
        ("left", left, left * height),
        ("right", width - right, (width - right) * height),
    ]
    fits = [
        (area, side, size)
        for side, size, area in sides
        if size >= (MIN_ROWS if side in ("bottom", "top") else MIN_COLUMNS)
    ]
    if not fits:
        return "bottom", height - bottom  # the least bad: the words scroll
    _, side, size = max(fits, key=lambda fit: fit[0])
    return side, size


class LessonModal(ChoiceModal):
    """A lesson: its words and one way on (Enter, or 1), in `place` (see
    `place_away_from`): the keys line says Enter, so no option list takes four rows."""

    DEFAULT_CSS = """
    LessonModal #choices, LessonModal #choice-title, LessonModal #choice-keys { display: none; }
    LessonModal > Vertical { border-title-style: bold; border-subtitle-color: $text; }
    LessonModal #choice-body { color: $text; }
    """

    def __init__(self, title: str, body: str, go: str, keys: tuple[str, str], place=("bottom", 0)):
        """`keys`: Enter's words, then the dialogs' other keys (left out when the box is
        too narrow for both)."""
        super().__init__(title, [(go, True)], body=body, keys=" · ".join(k for k in keys if k))
        self.go_key = keys[0]
        self.place = place

    def action_back(self) -> None:
        self.app.notify(self.go_key, markup=False)  # a lesson goes on with Enter only

    def on_mount(self) -> None:
        # (a border's title is read as markup)
        self.query_one(Vertical).border_title = escape_markup(self.title_text)

    def _fit(self) -> None:
        side, size = self.place
        box = self.query_one(Vertical)
        width, height = self.app.size
        if side in ("bottom", "top"):
            self.styles.align = ("center", side)
            rows = min(size, height) if size else height
            box.styles.max_height = rows
            box.styles.width = min(78, width)
        else:
            self.styles.align = (side, "middle")
            rows = height
            box.styles.max_height = rows
            box.styles.width = min(78, size)
        keys = self.keys if len(self.keys) + 6 <= box.styles.width.value else self.go_key
        box.border_subtitle = escape_markup(keys)
        # the box's borders (its title and its keys) stay; the words scroll
        self.query_one("#choice-body-box").styles.max_height = max(1, rows - 2)
