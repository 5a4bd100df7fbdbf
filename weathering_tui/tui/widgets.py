"""The game screen's panes. Each renders a seat's view as Rich text: few widgets, fast keys."""

from __future__ import annotations

import os

from rich.cells import cell_len
from rich.text import Text
from textual.markup import escape as escape_markup
from textual.widget import Widget

from ..engine import View, band_for, card_id
from ..words import Tr
from ..words.describe import card_summary
from ..words.log_lines import log_line

TYPE_STYLE = {
    "anthropique": "bold magenta",
    "oceanique": "bold blue",
    "terrestre": "bold green",
    "atmospherique": "bold cyan",
}


BAND_STYLE = {  # the outcome bands of §9.2, from the best for the Écolos down
    "grand_soleil": "bold bright_yellow",
    "ensoleille": "green",
    "eclaircies": "yellow",
    "orageux": "dark_orange",
    "tourmente": "red",
    "effondrement": "bold red",
}


def band_style(hp: int, threshold: int) -> str:
    """The colour of a gauge at `hp`: its outcome band's (the engine says which band)."""
    return BAND_STYLE[band_for(hp, threshold)[0]]


def phase_line(tr: Tr, view: View) -> str:
    if view.stage == "mulligan":
        return tr("mulligan_stage")
    if view.stage == "transition":
        return tr("transition_stage")
    if view.stage == "over":
        return tr("over_stage")
    return tr("phase_turn", phase=view.phase, turn=view.round_in_phase, of=view.rounds_per_phase)


class Line(Widget):
    """Rich text that repaints without a layout pass (the panes never change size in a
    game), and only when the text changed."""

    _shown: Text = Text()

    def render(self) -> Text:
        return self._shown

    def show_text(self, text: Text) -> None:
        if text != self._shown:
            self._shown = text
            self.refresh()


class Pane(Line):
    """A bordered pane whose content is rebuilt from a view."""

    DEFAULT_CSS = """
    Pane { border: round $secondary; padding: 0 1; }
    """

    _asked: tuple | None = None  # what it was last asked to show (to fit it again)

    def show(self, view: View, tr: Tr, **extra) -> None:
        self._asked = (view, tr, extra)
        self.show_text(self.build(view, tr, **extra))

    def on_resize(self) -> None:
        """Its lines are fitted to its width: built again once it has its size (a pane
        shown again after being hidden was built while it had none)."""
        if self._asked is not None:
            view, tr, extra = self._asked
            self.show_text(self.build(view, tr, **extra))

    def build(self, view: View, tr: Tr, **extra) -> Text:  # pragma: no cover - abstract
        raise NotImplementedError


class HeaderLine(Line):
    def show(self, view: View, tr: Tr, status: str = "") -> None:
        left = Text.assemble(
            (" Weathering", "bold"),
            f" · {view.configuration} · {phase_line(tr, view)}",
        )
        width = max(0, (self.size.width or 80) - left.cell_len - len(status) - 1)
        self.show_text(left + Text(" " * width) + Text(status, style="dim"))


class Gauge(Line):
    """The ecosystem track 0–30 with its start mark and the victory threshold."""

    def show(self, view: View, tr: Tr) -> None:
        hp, top, threshold = view.hp, view.gauge_max, view.threshold
        label = f" {tr('gauge')} "
        tail = (
            f" {hp:>2}/{top}  {tr('gauge.start', hp=view.start_hp)}"
            f"  {tr('gauge.win', hp=threshold)}"
        )
        width = max(10, min(60, (self.size.width or 80) - len(label) - len(tail) - 2))
        filled = round(width * hp / top)
        bar = Text("▕")
        for i in range(width):
            value = (i + 0.5) * top / width
            char = "█" if i < filled else "░"
            bar.append(char, style=band_style(int(value), threshold) if i < filled else "dim")
        bar.append("▏")
        self.show_text(
            Text(label, style="bold") + bar + Text(tail, style=band_style(hp, threshold))
        )


def _who(tr: Tr, player, width: int = 14) -> str:
    """A seat in `width` columns: the name, and the character when the name is a
    player's (a character's name is never cut: the pane has room for the longest). A
    player's name is whole up to `width - 3` letters — it says whom one faces — and the
    character gets what is left, cut with "…" (it was the name that was cut, to 8)."""
    character = tr.content.characters[player.character].name if player.character else ""
    if not character or character == player.name:
        return player.name[: max(width, len(character))]
    name = player.name[: width - 3]
    who = f"{name}·{character}"
    return who if len(who) <= width else who[: width - 1] + "…"


STATS = 23  # "PA 10 ◆0  N1 ✋4 ▤0": PA and its number apart, 10 too ("PA10" read as a word)


class PlayersPane(Pane):
    def build(self, view: View, tr: Tr, **extra) -> Text:
        out = Text()
        deciding = view.pending.seat if view.pending else -1  # -1 in a reaction window
        self._fit(view, tr)
        # What the name leaves: marks (3), PA, stored PA, level, hand (✋ is two cells
        # wide) and deck.
        width = max(14, (self.size.width or 40) - 4 - STATS)
        for i, p in enumerate(view.players):
            marker = "▶" if p.seat == view.active else ("?" if p.seat == deciding else " ")
            style = "bold" if p.seat == view.active else ""
            line = Text(f"{marker}", style="bold yellow")
            # The side as one letter (the legend says which): room for whole names.
            line.append(
                f"{tr('side.' + p.side)[0]} ", style="green" if p.side == "ecologist" else "red"
            )
            line.append(f"{_who(tr, p, width):<{width}} ", style=style)
            stored = f"{min(p.stored_ap, 99):<2}"
            line.append(f"PA{p.ap:>3} ◆{stored} {tr('level_short')}{p.level} ✋{p.hand_count:<2}")
            if p.side == "ecologist":
                line.append(f"▤{p.deck_count}")
            if i:
                out.append("\n")
            out.append_text(line)
        return out

    def _fit(self, view: View, tr: Tr) -> None:
        """Wide enough for every name and character whole when the screen has room: the
        events pane beside it keeps 36 columns (at 80 columns the pane stays at 44)."""
        longest = max((len(_who(tr, p, 99)) for p in view.players), default=14)
        room = (self.screen.size.width or 80) - 36
        want = max(44, min(room, longest + 4 + STATS + 4))  # + marks, stats, border, padding
        if self.styles.width is None or self.styles.width.value != want:
            self.styles.width = want


class EventsPane(Pane):
    """One line per active event (the one revealed this round included, even when it
    lasts only this round), then the newest one's text on the rows left."""

    def build(self, view: View, tr: Tr, **extra) -> Text:
        self.border_subtitle = ""
        if not view.events_enabled:
            return Text(tr("events.off"), style="dim")
        if not view.active_events:
            return Text(tr("events.none"), style="dim")
        out = Text()
        width = max(20, self.size.width or 36)
        height = max(1, self.size.height or 3)
        events = view.active_events[-height:]
        for i, event in enumerate(events):
            if i:
                out.append("\n")
            name = tr.event(event.event)
            turns = tr("events.turns", n=event.remaining)
            room = width - len(turns) - 1
            if len(name) > room:  # a long name whole on its row, its time under it
                out.append(name + "\n", style="bold")
                name = ""
            out.append(f"{name:<{room}} ", style="bold")
            out.append(turns, style="yellow")
        room = height - len(events)
        text = tr.event_text(events[-1].event)
        lines = wrap(text, width, room) if room else []
        if room:
            out.append("\n" + "\n".join(lines), style="dim")
        whole = "".join("".join(lines).split()) == "".join(text.split())
        if len(events) < len(view.active_events) or not whole:
            # Some of it is out of sight (1v1 at 80×24 has two rows): v says it all.
            self.border_subtitle = tr("events.more")
        return out


class HandPane(Pane):
    """The viewing seat's hand; unplayable cards are dimmed."""

    def build(self, view: View, tr: Tr, selected: int = 0, deck: bool = False, **_) -> Text:
        """`deck`: the seat's own deck under its hand (a replay, which has no deck pane)."""
        out = self._hand(view, tr, selected)
        cards = view.me.deck if deck and not view.spectator else None
        if cards:
            colon = tr.colon
            names = ", ".join(tr.card(c) for c in cards)
            out.append(f"\n▤ {tr('deck', n=len(cards))}{colon}{names}", style="dim")
        return out

    def _hand(self, view: View, tr: Tr, selected: int) -> Text:
        if view.spectator:  # watching a table: no hand of one's own
            self.border_title = tr("spectating")
            return Text(tr("spectating.body"), style="dim")
        me = view.me
        # A border title is read as markup: a player's name is escaped first.
        who = me.name
        character = tr.content.characters[me.character].name if me.character else ""
        if character and character != me.name:  # a player's own name: say who they play
            who = f"{me.name} · {character}"
        self.border_title = tr("hand_of", name=escape_markup(who), n=me.hand_count)
        if view.synergy is not None and view.round_in_phase == view.rounds_per_phase:
            # Phase 1's last round: the hand is discarded at the transition, the deck stays
            self.border_title += tr("hand.last_round")
        hand = view.hand
        if not hand:
            return Text("—", style="dim")
        width = max(30, self.size.width or 50)
        # Names whole (the longest held sets the column), the summary gets the rest.
        name_width = max(len(tr.card(held.instance)) for held in hand)
        out = Text()
        for i, held in enumerate(hand):
            instance = held.instance
            card = tr.content.cards[held.card]
            effective, printed = held.cost, held.printed_cost
            cost = f"{effective}PA" if effective == printed else f"{effective}({printed})"
            mark = "▸" if i == selected else " "
            line = Text(f"{mark}{i + 1} ", style="bold yellow" if i == selected else "")
            line.append(f"{tr.card(instance)[:name_width]:<{name_width}} ")
            line.append(f"{tr('type.' + card.type)} ", style=TYPE_STYLE[card.type])
            line.append(f"{cost:>5} ")
            rest = width - name_width - 14
            summary = card_summary(tr, instance, view)
            line.append(summary if len(summary) <= rest else summary[: max(0, rest - 1)] + "…")
            if not held.playable:
                line.stylize("dim")
            if i == selected:
                line.stylize("reverse")
            if i:
                out.append("\n")
            out.append_text(line)
        # The rows left under the hand say the selected card in full: a name or a text
        # cut to fit its row is never all a player gets to read.
        room = max(0, (self.size.height or 8) - len(hand))
        if room and 0 <= selected < len(hand):
            instance = hand[selected].instance
            detail = tr.card(instance) + tr.colon
            lines = wrap(detail + tr.card_text(instance), width, room)
            if lines[-1].endswith("…"):  # no room for the name too: the text comes first
                lines = wrap(tr.card_text(instance), width, room)
            out.append("\n" * (room - len(lines) + 1))
            out.append("\n".join(lines), style="italic")
        return out


def wrap(text: str, width: int, rows: int) -> list[str]:
    """`text` on at most `rows` lines of `width` (the last one cut with … if needed)."""
    import textwrap

    lines = textwrap.wrap(text, width) or [""]
    if len(lines) > rows:
        lines = lines[:rows]
        lines[-1] = lines[-1][: width - 1] + "…"
    return lines


class DeckPane(Pane):
    def build(self, view: View, tr: Tr, **extra) -> Text:
        # Phase 1's deck is the Écolo's hand of phase 2 (their hand then is discarded):
        # said under the pane all along, since what goes in decides the next phase.
        self.border_subtitle = tr("deck.becomes_hand") if view.synergy is not None else ""
        if view.spectator or view.synergy is None:  # no deck of one's own to build now
            self.border_title = tr("deck.lobbyist")
            return Text(
                tr("deck.public_line", draw=view.draw_pile_count, discard=len(view.discard_pile)),
                style="dim",
            )
        deck = view.me.deck or ()
        self.border_title = tr("deck", n=len(deck))
        out = Text()
        room = max(10, (self.size.width or 22) - 4)
        for instance in deck:
            card = tr.content.cards[card_id(instance)]
            name = tr.card(instance)
            if len(name) > room:  # the name whole, in its type's colour (as in the hand)
                out.append(f"{name}\n", style=TYPE_STYLE[card.type])
                continue
            out.append(f"{name:<{room}} ")
            out.append(f"{tr('type.' + card.type)}\n", style=TYPE_STYLE[card.type])
        synergy = view.synergy
        if len(deck) < synergy.min_deck:
            out.append(tr("deck.synergy_short", n=synergy.min_deck), style="dim")
        elif synergy.qualifies == "single_type":
            out.append(tr("deck.synergy_mono"), style="green")
        elif synergy.qualifies == "four_types":
            out.append(tr("deck.synergy_four"), style="green")
        else:
            out.append(tr("deck.synergy_none"), style="dim")
        out.append(
            "\n"
            + tr("deck.public_line", draw=view.draw_pile_count, discard=len(view.discard_pile)),
            style="dim",
        )
        return out


class LogPane(Pane):
    """The newest lines of the log, bottom-aligned; scrollable through the log screen."""

    def build(self, view: View, tr: Tr, extra=(), **_) -> Text:
        """`extra`: table notices (log length when they came, order, line), in their place.
        Every line is plain text: a player's chat is never read as markup."""
        import textwrap

        height = max(1, self.size.height or 3)
        width = max(20, self.size.width or 76)
        notices = sorted(extra, reverse=True)
        rows: list[str] = []  # newest first; an entry too long goes on as many rows as it needs

        def add(line: str) -> bool:
            """Whole entries only: one that no longer fits leaves its rows blank."""
            wrapped = textwrap.wrap(line, width, subsequent_indent="  ") or [""]
            if rows and len(rows) + len(wrapped) > height:
                return False
            rows.extend(reversed(wrapped))
            return True

        full = False
        for index in range(len(view.log), -1, -1):
            while notices and notices[0][0] >= index and not full:
                full = not add(notices.pop(0)[-1])
            if full or index == 0 or len(rows) >= height:
                break
            line = log_line(tr, view, view.log[index - 1])
            if line is not None:
                full = not add(line)
        shown = list(reversed(rows[:height]))
        return Text("\n" * (height - len(shown)) + "\n".join(shown))


def log_lines(tr: Tr, view: View, extra=()) -> list[str]:
    """The whole log, with the table's notices (as in `LogPane.build`) in their place."""
    notices = sorted(extra)
    lines: list[str] = []
    for index, entry in enumerate(view.log):
        while notices and notices[0][0] <= index:
            lines.append(notices.pop(0)[-1])
        if (line := log_line(tr, view, entry)) is not None:
            lines.append(line)
    return lines + [notice[-1] for notice in notices]


def _cut(words: str, cut: int) -> str:
    """A key's words, shortened to `cut` characters with a "." saying so."""
    return words if len(words) <= cut else words[: cut - 1].rstrip() + "."


class KeyBar(Line):
    """The footer: only the keys that apply now (the screen's check_action decides), as one
    line of text, so that a key press never rebuilds widgets."""

    shown: tuple[str, ...] = ()  # the keys that apply now (tests read them)
    drawn: tuple[str, ...] = ()  # those on the line (a narrow one leaves some to the help)
    bare: tuple[str, ...] = ()  # those on the line without their words

    # Help and quit keep their words the longest: they are how one learns the rest and how
    # one leaves, and "? q" says neither (a French player at 80 columns saw no "aide").
    KEEP = ("?", "q")
    # A key on the line keeps its word (a bare "h" or "u" told a new player nothing):
    # when the words do not fit, whole keys leave the line, the least used first, and
    # "…" before "? aide" says the help has them. Undo and hint never leave it.
    DROP = ("␣", "m", "t", "s", "o", "b", "d", "x")

    def show_text(self, text: Text) -> None:
        """A line of its own (a lesson's instruction): no keys."""
        self.shown = self.drawn = ()
        super().show_text(text)

    def show_keys(self, keys: list[tuple[str, str]]) -> None:
        width = self.size.width or 80
        # No colour: a terminal may draw the key's reverse video as plain text, and
        # "pjouer" reads as one word: the key always keeps a space before its word.
        plain = bool(os.environ.get("NO_COLOR"))
        for gap, sep, line in self._stages(keys, plain):
            items = [k + (sep + w if w else "") for k, w in line]
            if cell_len(" " + gap.join(items)) <= width:
                break
        out = Text(" ")
        for i, (key, words) in enumerate(line):
            if i:
                out.append(gap)
            out.append(key, style="bold reverse" if key != "…" else "")
            if words:
                out.append(f"{sep}{words}")
        super().show_text(out)
        self.shown = tuple(key for key, _ in keys)
        self.drawn = tuple(key for key, _ in line if key != "…")
        self.bare = tuple(key for key, words in line if not words and key != "…")

    def _stages(self, keys: list[tuple[str, str]], plain: bool):
        """Each way to draw the line, from the widest to the narrowest: (gap, sep, keys)."""
        seps = (" ",) if plain else (" ", "")
        yield "  ", " ", keys
        for sep in seps:
            yield " ", sep, keys
        sep = seps[-1]
        dropped = [k for k in self.DROP if k in (key for key, _ in keys)]
        for n in range(1, len(dropped) + 1):
            yield " ", sep, self._without(keys, dropped[:n])
        fewer = self._without(keys, dropped)
        # Only then cut words (marked "."), and last of all help and quit stand bare.
        for cut in (6, 5):
            yield " ", sep, [(k, w if k in self.KEEP else _cut(w, cut)) for k, w in fewer]
        yield " ", sep, [(k, "" if k in self.KEEP else _cut(w, 5)) for k, w in fewer]

    @staticmethod
    def _without(keys: list[tuple[str, str]], gone: list[str]) -> list[tuple[str, str]]:
        """The keys but `gone`, with "…" before help when any went (the help has them)."""
        out = [(k, w) for k, w in keys if k not in gone]
        if gone:
            at = next((i for i, (k, _) in enumerate(out) if k == "?"), len(out))
            out.insert(at, ("…", ""))
        return out
