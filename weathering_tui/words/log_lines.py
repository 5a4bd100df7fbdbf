"""The log in words: each entry as the seat that reads it may see it (`log_line`)."""

from __future__ import annotations

from ..engine import View, card_id
from . import Tr
from .describe import (
    announcement,
    name,
    peek_name,
)


def log_line(tr: Tr, view: View, entry) -> str | None:
    """One log entry in words, as this seat may read it; None for entries not worth a line."""
    line = _log_line(tr, view, entry)
    return tr.colons(line) if line is not None else line


def _log_line(tr: Tr, view: View, entry) -> str | None:  # noqa: C901 - one case per entry kind
    d = entry.data
    colon = tr.colon  # French typography puts a space before the colon
    who = name(view, d.get("seat"))
    kind = entry.kind
    if kind == "round":
        return tr("phase_turn", phase=d["phase"], turn=d["in_phase"], of=view.rounds_per_phase)
    if kind == "event_revealed":
        return tr("logline.event_revealed", e=tr.event(d["card"]))
    if kind == "event_extended":
        return tr("logline.event_extended", e=tr.event(d["event"]), r=d["remaining"])
    if kind == "event_cancelled":
        return tr("logline.event_cancelled", e=tr.event(d["card"]), w=who)
    if kind == "turn":
        line = tr("logline.turn", w=who, income=d["income"], ap=d["ap"])
        if d["income"] == 0:  # nothing gained: say why (the PA cap, or an event)
            if d["ap"] >= view.ap_cap:
                return line + tr("logline.turn_capped", cap=view.ap_cap)
            return line + tr("logline.turn_cut")
        return line
    if kind == "announce":
        return announcement(tr, view, {**d, "action": d["action"]}, now=False)
    if kind == "cancel":
        source = tr.source(card_id(d["source"]))
        return tr("logline.cancel", w=who, s=source, c=d["cost"])
    if kind in ("heal", "damage"):
        sign = "+" if kind == "heal" else "−"
        source = str(d.get("source") or "")
        if source == "synergy":
            why = tr("logline.synergy_source")
        else:
            named = tr.source(card_id(source)) if source else ""
            why = f" ({named})" if named and named != card_id(source) else ""
        return f"{sign}{d['amount']} PV → {d['hp']}{why}"
    if kind == "draw":
        if d["reason"] == "setup":
            return None
        cards = entry.secret.get("cards")
        shown = colon + ", ".join(tr.card(c) for c in cards) if cards else ""
        return tr("logline.draw", w=who, count=d["count"], s=shown)
    if kind == "discard":
        gain = f" (+{d['ap']} PA)" if d.get("ap") else ""
        reason = str(d.get("reason", "action"))
        if reason == "overflow":
            gain = tr("logline.hand_full")
        elif reason != "action":
            source, _, how = reason.partition(":")
            chance = tr("logline.at_random") if how == "random" else ""
            gain = f" ({tr.source(card_id(source))}{chance})"
        return tr("logline.discard", w=who, c=tr.card(d["card"]), g=gain)
    if kind == "discard_kept":
        return tr("logline.discard_kept", w=who, c=tr.card(d["card"]))
    if kind in ("burned", "revealed"):
        return tr("logline.burned", c=tr.card(d["card"]))
    if kind == "gain_ap":
        return tr("logline.gain_ap", w=who, amount=d["amount"])
    if kind == "lose_ap":
        if not d["amount"]:  # at 0 PA: the card was played for nothing, and the log says so
            return tr("logline.no_ap_to_lose", w=who)
        return tr("logline.lose_ap", w=who, amount=d["amount"])
    if kind == "stored":
        return tr("logline.stored", w=who, amount=d["amount"], level=d["level"])
    if kind == "decked":
        card = entry.secret.get("card")
        return tr("logline.decked", w=who, s=colon + tr.card(card) if card else "")
    if kind == "trade_answer":
        return tr("logline.trade_accepted" if d["accept"] else "logline.trade_refused", w=who)
    if kind == "exchange":
        gave = entry.secret.get("gave")
        seats = d["seats"]
        text = tr("logline.exchange", a=name(view, seats[0]), b=name(view, seats[1]))
        if gave:
            mine = gave.get(str(view.seat))
            theirs = [v for k, v in gave.items() if k != str(view.seat)]
            if mine is not None and theirs:
                text += tr(
                    "logline.exchange_mine",
                    m=tr.card(mine) if mine else "—",
                    t=tr.card(theirs[0]) if theirs[0] else "—",
                )
        return text
    if kind == "give":
        card = entry.secret.get("card")
        shown = tr.card(card) if card else tr("logline.a_card")
        return tr("logline.give", w=who, c=shown, t=name(view, d["target"]))
    if kind == "take_from_discard":
        # (not "takes back": that reads as a move taken back, an undo)
        return tr("logline.take_from_discard", w=who, c=tr.card(d["card"]))
    if kind == "look_hand":
        hand = entry.secret.get("hand")
        text = tr("logline.look_hand", w=who, t=name(view, d["target"]))
        if hand is not None:
            text += colon + (", ".join(tr.card(c) for c in hand) or "—")
        return text
    if kind == "reveal_hand":
        return tr("logline.reveal_hand", w=who, h=", ".join(tr.card(c) for c in d["hand"]) or "—")
    if kind == "peek":
        cards = entry.secret.get("cards")
        text = tr("logline.peek", w=who, n=d["count"])
        if cards:
            text += colon + ", ".join(peek_name(tr, view, c) for c in cards)
        return text
    if kind == "synergy":
        types = ", ".join(tr("type." + t) for t in d["types"])
        return tr("logline.synergy", w=who, t=types)
    if kind == "prepare":
        gone = len(d.get("discarded", ()))
        return tr("logline.prepare", w=who, g=gone, count=d["hand_count"])
    if kind == "income_mod":
        amount = f"{d['amount']:+d}".replace("-", "−")
        return tr("logline.income_mod", w=who, amount=amount)
    if kind == "game_over":
        return tr(f"band.{d['band']}") + f" · {d['hp']}/{view.gauge_max}"
    if kind in ("mulligan",) and d["count"]:
        return tr("logline.mulligan", w=who, n=d["count"])
    if kind == "transition":
        return tr("transition_stage")
    if kind == "forced":
        key = "log.forced_option" if d.get("decision") == "choose_option" else "log.forced"
        return tr(key, name=who)
    if kind == "effect_lost":
        what = "take" if d.get("op") == "take_from_discard" else "choice"
        return tr(f"log.lost_{what}", name=who)
    return None
