"""What a round's start says of the game's end: the Écolos' win chance from a state.

A rollout played to the end of the game measures one future: its result is won or
lost, a coin of variance ¼, so a search that spends 36 rollouts on a dozen moves ranks
noise. A rollout played to the start of a later round and judged there by this model
averages over the futures the model has seen instead.

The model: at the start of round r of a configuration, the final gauge is a linear
function of what the table holds then (gauge, PA and cards of each side, the cards left
to draw, the characters, the events at work) plus a normal error whose spread was
measured; the Écolos win when the final gauge reaches the threshold. One set of
weights for each configuration and round, fitted by least squares on games the
heuristic bots played against themselves, the same players a rollout uses
(`python -m weathering_tui.bots.value_fit` writes bots/value_weights.py).

A state the model was not fitted for (the Découverte threshold, a round or a
configuration it has no weights for) gets None: the caller plays to the end.
"""

from __future__ import annotations

import math

from ..content import effects as fx
from ..engine import GameState, card_id
from .value_weights import CHARACTERS, EVENTS, MODEL, THRESHOLD

FEATURES = (
    "bias",
    "hp",
    "ecologist_ap",
    "lobbyist_ap",
    "ecologist_hand",
    "lobbyist_hand",
    "ecologist_deck",
    "lobbyist_deck",
    "draw_pile",
    "ecologist_hand_worth",
    "lobbyist_hand_worth",
    "ecologist_deck_worth",
    "lobbyist_deck_worth",
    "ecologist_cancels",
    "lobbyist_cancels",
    *(f"character:{c}" for c in CHARACTERS),
    *(f"event:{e}" for e in EVENTS),
)


_WORTH: dict[int, dict[str, tuple[float, int]]] = {}


def card_worth(content) -> dict[str, tuple[float, int]]:
    """For each card id: (what its best cartouche moves the gauge toward a side, PV as
    the Écolos count them, negative for the Lobbyistes' blows; 1 if it cancels)."""
    table = _WORTH.get(id(content))
    if table is None:
        table = {}
        for name, card in content.cards.items():
            swings = [
                sum(
                    e.amount if isinstance(e, fx.Heal) else -e.amount
                    for e in cartouche
                    if isinstance(e, fx.Heal | fx.Damage)
                )
                for cartouche in card.cartouches
            ]
            best = max(swings, key=abs, default=0)
            table[name] = (float(best), int(card.cancel_effect() is not None))
        _WORTH[id(content)] = table
    return table


def features(state: GameState) -> list[float]:
    """The table as the model reads it (every card counted, hidden or not: it is
    called on the worlds a search sampled, never on a real game a seat cannot see)."""
    worth_of = card_worth(state.content)
    ap = {"ecologist": 0, "lobbyist": 0}
    hand = {"ecologist": 0, "lobbyist": 0}
    deck = {"ecologist": 0, "lobbyist": 0}
    hand_worth = {"ecologist": 0.0, "lobbyist": 0.0}
    deck_worth = {"ecologist": 0.0, "lobbyist": 0.0}
    cancels = {"ecologist": 0, "lobbyist": 0}
    characters = dict.fromkeys(CHARACTERS, 0)
    for p in state.players:
        ap[p.side] += p.ap + p.stored_ap
        hand[p.side] += len(p.hand)
        deck[p.side] += len(p.deck)
        sign = 1.0 if p.side == "ecologist" else -1.0
        for card in p.hand:
            worth, cancel = worth_of[card_id(card)]
            hand_worth[p.side] += max(0.0, sign * worth)
            cancels[p.side] += cancel
        for card in p.deck:
            worth, _ = worth_of[card_id(card)]
            deck_worth[p.side] += max(0.0, sign * worth)
        if p.character in characters:
            characters[p.character] += 1
    events = dict.fromkeys(EVENTS, 0)
    for active in state.active_events:
        if active.event in events:
            events[active.event] += active.remaining
    return [
        1.0,
        state.hp,
        ap["ecologist"],
        ap["lobbyist"],
        hand["ecologist"],
        hand["lobbyist"],
        deck["ecologist"],
        deck["lobbyist"],
        len(state.draw_pile),
        hand_worth["ecologist"],
        hand_worth["lobbyist"],
        deck_worth["ecologist"],
        deck_worth["lobbyist"],
        cancels["ecologist"],
        cancels["lobbyist"],
        *characters.values(),
        *events.values(),
    ]


def ecologist_chance(state: GameState) -> tuple[float, float] | None:
    """(the Écolos' win chance, the final gauge expected) at the start of a round, or
    None where the model has no weights."""
    if not state.setup.events or state.stage != "play":
        return None  # Découverte's threshold and events are another game
    fitted = MODEL.get((state.setup.configuration, state.round))
    if fitted is None:
        return None
    weights, spread = fitted
    expected = sum(w * x for w, x in zip(weights, features(state), strict=True))
    expected = min(30.0, max(0.0, expected))
    # The final gauge is a whole number: the Écolos win from THRESHOLD − ½ up.
    chance = 0.5 * (1.0 + math.erf((expected - (THRESHOLD - 0.5)) / (spread * math.sqrt(2.0))))
    return chance, expected
