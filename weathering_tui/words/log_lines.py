"""The log in words: each entry as the seat that reads it may see it (`log_line`)."""

from __future__ import annotations

from ..engine import View, card_id
from . import Tr, plural
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
    fr = tr.lang == "fr"
    colon = tr.colon  # French typography puts a space before the colon
    who = name(view, d.get("seat"))
    kind = entry.kind
    if kind == "round":
        return tr("phase_turn", phase=d["phase"], turn=d["in_phase"], of=view.rounds_per_phase)
    if kind == "event_revealed":
        return ("Événement : " if fr else "Event: ") + tr.event(d["card"])
    if kind == "event_extended":
        return ("{e} se prolonge ({n} t)" if fr else "{e} extended ({n} r)").format(
            e=tr.event(d["event"]), n=d["remaining"]
        )
    if kind == "event_cancelled":
        return ("{w} annule l'événement {e}" if fr else "{w} cancels the event {e}").format(
            e=tr.event(d["card"]), w=who
        )
    if kind == "turn":
        line = ("— {w} : +{n} PA → {ap}" if fr else "— {w}: +{n} PA → {ap}").format(
            w=who, n=d["income"], ap=d["ap"]
        )
        if d["income"] == 0:  # nothing gained: say why (the PA cap, or an event)
            if d["ap"] >= view.ap_cap:
                cap = view.ap_cap
                return line + (f" ({cap} PA au plus)" if fr else f" ({cap} PA at most)")
            return line + (
                " (revenu baissé par un événement)" if fr else " (income cut by an event)"
            )
        return line
    if kind == "announce":
        return announcement(tr, view, {**d, "action": d["action"]}, now=False)
    if kind == "cancel":
        return ("{w} annule avec {s} ({c} PA)" if fr else "{w} cancels with {s} ({c} PA)").format(
            w=who, s=tr.source(card_id(d["source"])), c=d["cost"]
        )
    if kind in ("heal", "damage"):
        sign = "+" if kind == "heal" else "−"
        source = str(d.get("source") or "")
        if source == "synergy":
            why = " (synergie)" if fr else " (synergy)"
        else:
            named = tr.source(card_id(source)) if source else ""
            why = f" ({named})" if named and named != card_id(source) else ""
        return f"{sign}{d['amount']} PV → {d['hp']}{why}"
    if kind == "draw":
        if d["reason"] == "setup":
            return None
        cards = entry.secret.get("cards")
        shown = colon + ", ".join(tr.card(c) for c in cards) if cards else ""
        return ("{w} pioche {n}{s}" if fr else "{w} draws {n}{s}").format(
            w=who, n=d["count"], s=shown
        )
    if kind == "discard":
        gain = f" (+{d['ap']} PA)" if d.get("ap") else ""
        reason = str(d.get("reason", "action"))
        if reason == "overflow":
            gain = " (main pleine)" if fr else " (hand full)"
        elif reason != "action":
            source, _, how = reason.partition(":")
            chance = (" au hasard" if fr else " at random") if how == "random" else ""
            gain = f" ({tr.source(card_id(source))}{chance})"
        return ("{w} défausse {c}{g}" if fr else "{w} discards {c}{g}").format(
            w=who, c=tr.card(d["card"]), g=gain
        )
    if kind == "discard_kept":
        return ("{w} garde {c} en main" if fr else "{w} keeps {c} in hand").format(
            w=who, c=tr.card(d["card"])
        )
    if kind == "burned":
        return ("{c} part à la défausse" if fr else "{c} goes to the discard pile").format(
            c=tr.card(d["card"])
        )
    if kind == "gain_ap":
        return ("{w} reçoit {n} PA" if fr else "{w} gains {n} PA").format(w=who, n=d["amount"])
    if kind == "lose_ap":
        if not d["amount"]:  # at 0 PA: the card was played for nothing, and the log says so
            return ("{w} n'a aucun PA à perdre" if fr else "{w} has no PA to lose").format(w=who)
        return ("{w} perd {n} PA" if fr else "{w} loses {n} PA").format(w=who, n=d["amount"])
    if kind == "stored":
        return ("{w} stocke {n} PA (niveau {l})" if fr else "{w} stores {n} PA (level {l})").format(
            w=who, n=d["amount"], l=d["level"]
        )
    if kind == "decked":
        card = entry.secret.get("card")
        shown = colon + tr.card(card) if card else ""
        return (
            "{w} met une carte au deck{s}" if fr else "{w} puts a card in their deck{s}"
        ).format(w=who, s=shown)
    if kind == "revealed":
        return ("{c} part à la défausse" if fr else "{c} goes to the discard pile").format(
            c=tr.card(d["card"])
        )
    if kind == "trade_answer":
        if fr:
            yes = "accepte l'échange" if d["accept"] else "refuse l'échange"
        else:
            yes = "accepts the trade" if d["accept"] else "refuses the trade"
        return f"{who} {yes}"
    if kind == "exchange":
        gave = entry.secret.get("gave")
        seats = d["seats"]
        text = ("Échange entre {a} et {b}" if fr else "Exchange between {a} and {b}").format(
            a=name(view, seats[0]), b=name(view, seats[1])
        )
        if gave:
            mine = gave.get(str(view.seat))
            theirs = [v for k, v in gave.items() if k != str(view.seat)]
            if mine is not None and theirs:
                text += (
                    " : vous donnez {m}, recevez {t}" if fr else ": you give {m}, get {t}"
                ).format(
                    m=tr.card(mine) if mine else "—", t=tr.card(theirs[0]) if theirs[0] else "—"
                )
        return text
    if kind == "give":
        card = entry.secret.get("card")
        shown = tr.card(card) if card else ("une carte" if fr else "a card")
        return ("{w} donne {c} à {t}" if fr else "{w} gives {c} to {t}").format(
            w=who, c=shown, t=name(view, d["target"])
        )
    if kind == "take_from_discard":
        # (not "takes back": that reads as a move taken back, an undo)
        return (
            "{w} prend {c} dans la défausse" if fr else "{w} takes {c} from the discard pile"
        ).format(w=who, c=tr.card(d["card"]))
    if kind == "look_hand":
        hand = entry.secret.get("hand")
        text = ("{w} regarde la main de {t}" if fr else "{w} looks at {t}'s hand").format(
            w=who, t=name(view, d["target"])
        )
        if hand is not None:
            text += colon + (", ".join(tr.card(c) for c in hand) or "—")
        return text
    if kind == "reveal_hand":
        return ("{w} montre : {h}" if fr else "{w} shows: {h}").format(
            w=who, h=", ".join(tr.card(c) for c in d["hand"]) or "—"
        )
    if kind == "peek":
        cards = entry.secret.get("cards")
        text = plural(
            "{w} consulte {n} carte(s)" if fr else "{w} looks at {n} card(s)", d["count"]
        ).format(w=who, n=d["count"])
        if cards:
            text += colon + ", ".join(peek_name(tr, view, c) for c in cards)
        return text
    if kind == "synergy":
        types = ", ".join(tr("type." + t) for t in d["types"])
        return ("{w} annonce sa synergie : {t}" if fr else "{w} claims a synergy: {t}").format(
            w=who, t=types
        )
    if kind == "prepare":
        gone = len(d.get("discarded", ()))
        if fr:
            text = "{w} défausse sa main ({g}) et prend son deck en main ({n})"
        else:
            text = "{w} discards their hand ({g}) and takes their deck in hand ({n})"
        return text.format(w=who, g=gone, n=d["hand_count"])
    if kind == "income_mod":
        return ("{w} : {n} PA ce tour" if fr else "{w}: {n} PA this round").format(
            w=who, n=f"{d['amount']:+d}".replace("-", "−")
        )
    if kind == "game_over":
        return tr(f"band.{d['band']}") + f" · {d['hp']}/{view.gauge_max}"
    if kind in ("mulligan",) and d["count"]:
        return plural(
            "{w} repioche {n} carte(s)" if fr else "{w} redraws {n} card(s)", d["count"]
        ).format(w=who, n=d["count"])
    if kind == "transition":
        return tr("transition_stage")
    if kind == "forced":
        key = "log.forced_option" if d.get("decision") == "choose_option" else "log.forced"
        return tr(key, name=who)
    if kind == "effect_lost":
        what = "take" if d.get("op") == "take_from_discard" else "choice"
        return tr(f"log.lost_{what}", name=who)
    return None
