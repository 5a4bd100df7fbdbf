"""Words for actions, decisions and log entries, from a seat's view (no Textual here)."""

from __future__ import annotations

from ..content import effects as fx
from ..engine import View, card_id
from ..engine import actions as act
from . import Tr, plural


def name(view: View, seat: int | None) -> str:
    if seat is None or seat < 0:
        return "—"
    return view.players[seat].name


def effect_words(tr: Tr, view: View, effects, target=None) -> str:
    parts = []
    for effect in effects:
        match effect:
            case fx.Heal(amount=n):  # what it does now: the view's event modifiers applied
                parts.append(tr("opt.heal", n=max(0, n + (view.heal_mod if view else 0))))
            case fx.Damage(amount=n):
                parts.append(tr("opt.damage", n=max(0, n + (view.damage_mod if view else 0))))
            case fx.LoseAp(amount=n):
                parts.append(tr("opt.lose_ap", n=n))
            case fx.DiscardOwn(amount=n):
                parts.append(tr("opt.discard_own", n=n))
            case fx.IncomeMod(amount=n):
                parts.append(tr("opt.income_mod", who=name(view, target), n=-n))
            case _:  # the op in words, with its count (amount, up to, count or discard)
                n = next(
                    (
                        getattr(effect, f)
                        for f in ("amount", "up_to", "count", "discard")
                        if hasattr(effect, f)
                    ),
                    1,
                )
                parts.append(tr(f"opt.{fx.op_name(effect)}", n=n))
    return ", ".join(parts)


def choice_label(tr: Tr, view: View, action) -> str:  # noqa: C901 - one case per decision
    """How an option reads in a choice list."""
    content = tr.content
    match action:
        case act.ChooseCard(card=None) if view.pending and view.pending.kind == "mulligan":
            picked = view.pending.mine.get("picked", ())
            return tr("mulligan.done", n=len(picked)) if picked else tr("mulligan.keep")
        case act.ChooseCard(card=card) if view.pending and view.pending.kind == "mulligan":
            return tr("mulligan.put", cards=tr.card(card))
        case act.PlayCard(card=card, cartouche=index, target=target):
            cartouche = content.cards[card_id(card)].cartouches[index]
            words = effect_words(tr, view, cartouche)
            if not any(fx.op_name(e) in ("heal", "damage") for e in cartouche):
                words = tr.card_text(card)
            suffix = f"  {tr('target', name=name(view, target))}" if target is not None else ""
            suffix += _what_target_has(tr, view, cartouche, target)
            return f"{tr.card(card)}{tr.colon}{words}{suffix}"
        case act.StoreAp(amount=n):
            return f"{n} PA"
        case act.UsePower(target=target, card=card):
            power = tr.power(view.me.character)
            if card is not None:
                return f"{power} → {tr.card(card)} ({content.cards[card_id(card)].cost} PA)"
            if target is not None:
                return f"{power} {tr('target', name=name(view, target))}"
            return power
        case act.ProposeTrade(partner=partner):
            return name(view, partner)
        case act.Pass():
            return tr("react.pass")
        case act.Cancel(card=None):
            return tr("react.power", power=tr.power(view.me.character), cost=_power_cost(view, tr))
        case act.Cancel(card=card):
            return tr("react.card", card=tr.card(card), cost=_card_cost(view, card, tr))
        case act.AnswerTrade(accept=True):
            return tr("trade.accept")
        case act.AnswerTrade(accept=False):
            return tr("trade.refuse")
        case act.ChooseCard(card=None):
            kind = view.pending.kind if view.pending else ""
            return tr("give.stop") if kind == "choose_give" else tr("discard.stop")
        case act.ChooseCard(card=card):
            # what the card does, short: choosing among names alone is guessing
            label = f"{tr.card(card)} ({tr('type.' + content.cards[card_id(card)].type)})"
            summary = card_summary(tr, card, view)
            return f"{label} · {summary}"  # whole: the dialog wraps it
        case act.ChooseOption(option=option, target=target):
            return option_label(tr, view, option, target)
        case act.ClaimSynergy(claim=False):
            return tr("synergy.decline")
        case act.ClaimSynergy(claim=True):
            single = view.synergy is not None and view.synergy.qualifies == "single_type"
            return tr("synergy.claim_mono") if single else tr("synergy.claim_four")
        case act.ArrangeEvents(order=order, bottom=bottom):
            seen = peeked(view)
            names = [_peek_name(tr, view, seen[i]) for i in order]
            text = " › ".join(names) if names else "—"
            if bottom is not None:
                text += " · " + tr("arrange.bottom", card=_peek_name(tr, view, seen[bottom]))
            return text
        case act.PutInDeck(card=card):
            return tr("move.deck", card=tr.card(card))
        case act.Discard(card=card):
            return tr("move.discard", card=tr.card(card), n=view.discard_yield)
        case act.Draw():
            return tr("move.draw")
        case act.EndTurn():
            return tr("move.end")
    return act.action_name(action)


def _what_target_has(tr: Tr, view: View, cartouche, target) -> str:
    """What the effect takes from its target, when it takes PA or cards: a Storm on a
    player at 0 PA is lost, and the dialog should say so before, not the log after."""
    if target is None:
        return ""
    for effect in cartouche:
        if not fx.aimed(effect):
            continue
        if isinstance(effect, fx.LoseAp):
            return " " + tr("target.ap", n=view.players[target].ap)
        if isinstance(effect, fx.DiscardRandom):
            return " " + tr("target.hand", n=view.players[target].hand_count)
    return ""


def target_effects(content, view: View, action) -> tuple:
    """The effects a card played or a power used applies (what decides its aim)."""
    match action:
        case act.PlayCard(card=card, cartouche=index):
            return tuple(content.cards[card_id(card)].cartouches[index])
        case act.UsePower():
            me = view.me
            return tuple(content.characters[me.character].power.at(me.level).effects)
    return ()


def against_own_side(content, view: View, action) -> bool:
    """A harmful effect aimed at the player or an ally, or a gift aimed at an opponent."""
    target = getattr(action, "target", None)
    if target is None or not 0 <= target < len(view.players):
        return False
    aim = fx.aim(target_effects(content, view, action))
    ally = view.players[target].side == view.me.side
    return aim == (fx.HARMS if ally else fx.HELPS)


def gauge_against_own_side(content, view: View, action) -> bool:
    """A card whose heals and damage together move the gauge the other side's way."""
    if not isinstance(action, act.PlayCard) or not 0 <= view.seat < len(view.players):
        return False
    cartouche = content.cards[card_id(action.card)].cartouches[action.cartouche]
    swing = sum(e.amount for e in cartouche if isinstance(e, fx.Heal))
    swing -= sum(e.amount for e in cartouche if isinstance(e, fx.Damage))
    return swing < 0 if view.me.side == "ecologist" else swing > 0


def aimed_well_first(content, view: View, actions: list) -> list:
    """The same choices, those aimed as a player almost always wants first (a Storm at
    an opponent, a draw for oneself): the highlighted default must never be the one
    that costs a new player their own PA."""
    return sorted(actions, key=lambda a: against_own_side(content, view, a))


def move_label(tr: Tr, view: View, action) -> str:
    """A move said whole, out of the dialog that would give it its context (a hint, a
    lesson's next step): "store 2 PA", "propose a trade to Amir", "play Storm: …"."""
    match action:
        case act.PlayCard():
            return tr("move.play", what=choice_label(tr, view, action))
        case act.StoreAp(amount=n):
            return tr("move.store", n=n)
        case act.ProposeTrade(partner=partner):
            return tr("move.trade", name=name(view, partner))
        case act.UsePower():
            return tr("move.power", what=choice_label(tr, view, action))
    return choice_label(tr, view, action)


def option_label(tr: Tr, view: View, option: int, target) -> str:
    source = (view.pending.info or {}).get("source", "") if view.pending else ""
    effects = ()
    if source in tr.content.events:
        event = tr.content.events[source]
        for effect in (*event.on_reveal, *event.each_round):
            if isinstance(effect, fx.PlayerChoice | fx.GroupChoice):
                effects = effect.options[option]
    return effect_words(tr, view, effects, target) or str(option)


def _power_cost(view: View, tr: Tr) -> int:
    return view.me.power_cost


def _card_cost(view: View, instance: str, tr: Tr) -> int:
    return next(h.cost for h in view.hand if h.instance == instance)


def peeked(view: View) -> list[str]:
    for entry in reversed(view.log):
        if entry.kind == "peek" and entry.data.get("seat") == view.seat and entry.secret:
            return list(entry.secret["cards"])
    return []


def _peek_name(tr: Tr, view: View, instance: str) -> str:
    return tr.event(instance) if card_id(instance) in tr.content.events else tr.card(instance)


def announcement(tr: Tr, view: View, info: dict) -> str:
    """What a reaction window is about."""
    if info.get("action") == "event":
        return tr("react.event", event=tr.event(info["card"]))
    kind = info.get("action", "")
    actor = name(view, info.get("seat"))
    values = {
        "card": tr.card(info["card"]) if "card" in info else "",
        "target": name(view, info.get("target")),
        "amount": info.get("amount", 0),
        "power": tr.power(view.players[info["seat"]].character) if "seat" in info else "",
    }
    what = tr(f"action.{kind}", **values)
    if kind == "play_card" and "card" in info:
        cartouche = tr.content.cards[card_id(info["card"])].cartouches[info.get("cartouche", 0)]
        if all(isinstance(e, fx.Heal | fx.Damage) for e in cartouche):
            what += f" ({effect_words(tr, view, cartouche)})"
    if "target" in info and kind != "trade":
        what += f" {tr('target', name=name(view, info['target']))}"
    return tr("react.announce", actor=actor, what=f"{what} · {info.get('cost', 0)} PA")


def announced_effect(tr: Tr, view: View, info: dict) -> str:
    """What an announced card, power or event would do, in full: a player decides to
    cancel on the effect, not on a name."""
    kind = info.get("action", "")
    if kind == "event" and "card" in info:
        return tr.event_text(info["card"])
    if kind == "play_card" and "card" in info:
        return f"{tr.card(info['card'])}{tr.colon}{tr.card_text(info['card'])}"
    if kind == "use_power" and "seat" in info:
        return tr.power_text(view.players[info["seat"]].character)
    return ""


def decision_title(tr: Tr, view: View) -> str:
    """The heading of a decision modal for the viewing seat, with what caused it."""
    title = _decision_title(tr, view)
    cause = view.pending.cause
    if view.pending.kind in CAUSED and cause and cause != "overflow":
        title += f" · {tr.source(card_id(cause))}"
    return title


# Decisions whose heading does not name their cause already.
CAUSED = frozenset({"choose_discard", "choose_give", "choose_take", "arrange"})


def _decision_title(tr: Tr, view: View) -> str:
    pending = view.pending
    info = pending.info
    who = name(view, pending.seat)
    kind = pending.kind
    if kind == "mulligan":
        return tr("mulligan.title")
    if kind == "react":
        return tr("react.title", name=who)
    if kind == "trade_answer":
        return tr("trade.title", name=who, initiator=name(view, info["initiator"]))
    if kind == "choose_discard":
        key = "discard.overflow" if info.get("reason") == "overflow" else "discard.title"
        return tr(key, name=who, n=info["remaining"])
    if kind == "choose_give":
        return tr("give.title", name=who, target=name(view, info["target"]), n=info["remaining"])
    if kind == "choose_take":
        return tr("take.title", name=who)
    if kind == "choose_exchange":
        return tr("exchange.title", name=who, other=name(view, info["with"]))
    if kind == "choose_option":
        key = "option.group" if info.get("group") else "option.title"
        return tr(key, name=who, source=tr.source(info.get("source", "")))
    if kind == "arrange":
        return tr("arrange.title", name=who)
    if kind == "second_card":
        return tr("second.title", name=who, card=tr.card(info["card"]))
    if kind == "claim_synergy":
        return tr("synergy.title", name=who)
    return kind


# ------------------------------------------------------------ log


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
        return announcement(tr, view, {**d, "action": d["action"]})
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
            text += colon + ", ".join(_peek_name(tr, view, c) for c in cards)
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


def card_summary(tr: Tr, instance: str, view: View | None = None) -> str:
    """What a card does, short; with a `view`, its heals and damage as the active events
    let them through now (as the dialogs and the log say them)."""
    card = tr.content.cards[card_id(instance)]
    parts = []
    for cartouche in card.cartouches:
        if any(isinstance(e, fx.Cancel) for e in cartouche):
            parts.append(tr("cancel_text"))
        elif all(isinstance(e, fx.Heal | fx.Damage) for e in cartouche):
            parts.append(effect_words(tr, view, cartouche))
        else:
            parts.append(tr.card_text(instance))
    return " | ".join(parts)
