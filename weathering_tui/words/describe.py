"""Words for actions, decisions and log entries, from a seat's view (no Textual here)."""

from __future__ import annotations

from ..content import effects as fx
from ..engine import PendingView, View, against_own_side, card_id, own_side_harm
from ..engine import actions as act
from . import Tr


def name(view: View, seat: int | None) -> str:
    if seat is None or seat < 0:
        return "—"
    return view.players[seat].name


def effect_words(tr: Tr, view: View | None, effects, target=None) -> str:
    parts = []
    for effect in effects:
        match effect:
            case fx.Heal(amount=n):  # what it does now: the view's event modifiers applied
                now = max(0, n + (view.heal_mod if view else 0))
                parts.append(tr("opt.heal", n=now) if now or not n else tr("opt.held"))
            case fx.Damage(amount=n):
                now = max(0, n + (view.damage_mod if view else 0))
                parts.append(tr("opt.damage", n=now) if now or not n else tr("opt.held"))
            case fx.LoseAp(amount=n):
                parts.append(tr("opt.lose_ap", n=n))
            case fx.DiscardOwn(amount=n):
                parts.append(tr("opt.discard_own", n=n))
            case fx.IncomeMod(amount=n):
                assert view is not None, "without a view only heals and damage are worded"
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
        case act.ChooseCard(card=str() as card) if view.pending and view.pending.kind == "mulligan":
            return tr("mulligan.put", cards=tr.card(card))
        case act.PlayCard(card=card, cartouche=index, target=target):
            cartouche = content.cards[card_id(card)].cartouches[index]
            words = effect_words(tr, view, cartouche)
            if not any(fx.op_name(e) in ("heal", "damage") for e in cartouche):
                words = tr.card_text(card)
            suffix = f" {tr('target', name=name(view, target))}" if target is not None else ""
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
        case act.Cancel(card=str() as card):
            return tr("react.card", card=tr.card(card), cost=_card_cost(view, card, tr))
        case act.AnswerTrade(accept=True):
            return tr("trade.accept")
        case act.AnswerTrade(accept=False):
            return tr("trade.refuse")
        case act.ChooseCard(card=None):
            kind = view.pending.kind if view.pending else ""
            return tr("give.stop") if kind == "choose_give" else tr("discard.stop")
        case act.ChooseCard(card=str() as card):
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
            names = [peek_name(tr, view, seen[i]) for i in order]
            text = " › ".join(names) if names else "—"
            if bottom is not None:
                text += " · " + tr("arrange.bottom", card=peek_name(tr, view, seen[bottom]))
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


def aimed_well_first(content, view: View, actions: list) -> list:
    """The same choices, those aimed as a player almost always wants first (a Storm at
    an opponent, a draw for oneself): the highlighted default must never be the one
    that costs a new player their own PA, nor a card's cartouche that moves the gauge
    the other side's way (Climate feedback's +2 PV for a Lobbyiste)."""
    return sorted(
        actions,
        key=lambda a: (
            own_side_harm(content, view, a) in ("gauge", "side"),
            against_own_side(content, view, a),
        ),
    )


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


def move_cost(content, view: View, action) -> int:
    """The PA a move of one's turn spends (0: none, or it gives PA: a discard)."""
    const = content.constants
    match action:
        case act.PlayCard(card=card):
            return view.costs.get(card, content.cards[card_id(card)].cost)
        case act.PutInDeck():
            return const.deck_cost
        case act.Draw():
            return const.draw_cost
        case act.ProposeTrade():
            return const.trade_cost
        case act.StoreAp(amount=n):
            return n
        case act.UsePower():
            return view.me.power_cost
    return 0


def hint_notes(tr: Tr, view: View, found) -> list[str]:
    """What a hint's dialog says of its ranking (`bots.hints.Hints`): that the first
    moves cannot be told apart; or, told apart though their shares read the same ("97 %,
    97 %, 97 %" with no word was read as a contradiction in a play-test), that the first
    leaves the gauge better for one's side; why a move that hurts one's side is first;
    and what the first move leads to in the turn ("then: play Reforestation")."""
    notes = []
    if found.tied:
        notes.append(tr("hint.tied"))
    elif len(found) > 1 and _same_share(found[0].win, found[1].win):
        notes.append(tr("hint.same_share"))
    if found.why:
        notes.append(tr(found.why, gap=found.why_gap))
    if found.then:
        then = " · ".join(move_label(tr, view, m).rstrip(".") for m in found.then)
        notes.append(tr("hint.then", moves=then))
    return notes


def _same_share(first: float | None, second: float | None) -> bool:
    """Two shares a hint shows as the same whole percent."""
    if first is None or second is None:
        return False
    return round(100 * first) == round(100 * second)


def move_with_cost(tr: Tr, view: View, action) -> str:
    """A hint's move with the PA it spends, so that a player reading three hints sees
    that the first may leave too few PA for the second."""
    label = move_label(tr, view, action)
    cost = move_cost(tr.content, view, action)
    # (storing PA says its PA already: "store 1 PA · 1 PA" was read in a hint)
    return f"{label} · {cost} PA" if cost and not isinstance(action, act.StoreAp) else label


def option_label(tr: Tr, view: View, option: int, target) -> str:
    source = (view.pending.info or {}).get("source", "") if view.pending else ""
    return option_words(tr, view, source, option, target)


def option_words(tr: Tr, view: View, source: str, option: int, target) -> str:
    """What option `option` of the choice `source` (an event's) does, in words."""
    effects: tuple = ()
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


def peek_name(tr: Tr, view: View, instance: str) -> str:
    return tr.event(instance) if card_id(instance) in tr.content.events else tr.card(instance)


def announcement(tr: Tr, view: View, info: dict, now: bool = True) -> str:
    """What a reaction window is about. `now`: a card's heals and damage as the active
    events let them through now (a window's prompt); else as printed (a line of the log,
    which must not be rewritten when an event ends: the line under it says what it did)."""
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
            what += f" ({effect_words(tr, view if now else None, cartouche)})"
    if "target" in info and kind != "trade":
        what += f" {tr('target', name=name(view, info['target']))}"
    if kind != "store_ap":  # ("stores 3 PA" says its cost: not "stores 3 PA · 3 PA")
        what += f" · {info.get('cost', 0)} PA"
    return tr("react.announce", actor=actor, what=what)


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
    pending = view.pending
    assert pending is not None, "a decision modal shows a decision"
    title = _decision_title(tr, view, pending)
    cause = pending.cause
    if pending.kind in CAUSED and cause and cause != "overflow":
        title += f" · {tr.source(card_id(cause))}"
    return title


# Decisions whose heading does not name their cause already.
CAUSED = frozenset({"choose_discard", "choose_give", "choose_take", "arrange"})


def _decision_title(tr: Tr, view: View, pending: PendingView) -> str:
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
        if any(isinstance(a, act.ChooseCard) and a.card is None for a in view.legal):
            key = "discard.up_to"  # "Stop here" is offered: it reads as a must otherwise
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
