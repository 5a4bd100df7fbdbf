"""The game screen's panes (players, events, hand, deck, log): few widgets, fast keys."""

from __future__ import annotations

from rich.text import Text
from textual.markup import escape as escape_markup

from ...engine import View, card_id
from ...words import Tr
from ...words.describe import card_summary
from ...words.log_lines import log_line
from .lines import TYPE_STYLE, Pane


def _who(tr: Tr, player, width: int = 14) -> str:
    """A seat in `width` columns: the name, and the character when the name is a
    player's. A player's name is whole up to `width - 3` letters — it says whom one
    faces — and the character gets what is left, cut with "…" (it was the name that was
    cut, to 8). A name longer than the column is cut with "…" too: the pane is wide
    enough for the longest as soon as the screen has a column more than 80 (at 80,
    "Aux poches plein…"), and a longer one pushed its seat's numbers out of line."""
    character = tr.content.characters[player.character].name if player.character else ""
    if not character or character == player.name:
        name = player.name
        return name if len(name) <= width else name[: width - 1] + "…"
    name = player.name[: width - 3]
    who = f"{name}·{character}"
    return who if len(who) <= width else who[: width - 1] + "…"


# Around a seat's name: its marks ("▶É ", 3 cells), a space, and the 19 cells of
# "PA 10 ◆0  N1 ✋4 ▤0" (PA and its number apart, 10 too: "PA10" read as a word)
STATS = 23


class PlayersPane(Pane):
    def build(self, view: View, tr: Tr, **extra) -> Text:
        out = Text()
        deciding = view.pending.seat if view.pending else -1  # -1 in a reaction window
        self._fit(view, tr)
        # What the marks and the numbers leave (`size`: inside the border and padding)
        width = max(14, (self.size.width or 40) - STATS)
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
        want = max(44, min(room, longest + STATS + 4))  # + marks, numbers, border, padding
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
            if len(name) > room:  # cut to its row: a row more would push the text off
                name = name[: room - 1].rstrip() + "…"  # (a play-test; `v` says it whole)
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
        # The mulligan's cards already put back, marked ↩ and struck through until the
        # hand is kept (a play-test: nothing told which were picked)
        pending = view.pending
        back = set(pending.mine.get("picked", ())) if pending and pending.kind == "mulligan" else ()
        out = Text()
        for i, held in enumerate(hand):
            instance = held.instance
            card = tr.content.cards[held.card]
            effective, printed = held.cost, held.printed_cost
            cost = f"{effective}PA" if effective == printed else f"{effective}({printed})"
            # ↩ before ▸: the card just put back is most often the selected one.
            mark = "↩" if instance in back else "▸" if i == selected else " "
            line = Text(f"{mark}{i + 1} ", style="bold yellow" if i == selected else "")
            line.append(f"{tr.card(instance)[:name_width]:<{name_width}} ")
            line.append(f"{tr('type.' + card.type)} ", style=TYPE_STYLE[card.type])
            line.append(f"{cost:>5} ")
            rest = width - name_width - 14
            summary = card_summary(tr, instance, view)
            line.append(summary if len(summary) <= rest else summary[: max(0, rest - 1)] + "…")
            if not held.playable:
                line.stylize("dim")
            if instance in back:
                line.stylize("strike dim")
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
            if len(name) > room:  # one row a card, its type always said (a play-test
                name = name[: room - 1] + "…"  # read wrapped names, some typeless)
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
