"""Help: the keys, the turn and phase rules, and a browser of every card, character and event."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static, TabbedContent, TabPane

KEYS = {
    "fr": [
        ("↑ ↓ / 1–9", "choisir une carte de la main"),
        ("p / Entrée", "jouer la carte choisie (effet et cible dans une fenêtre)"),
        ("b", "mettre la carte au deck (Écolos, phase 1, 1 PA)"),
        ("x", "défausser la carte pour des PA (une fois par tour)"),
        ("d", "piocher (1 PA, une fois par tour ; pas les Écolos en phase 2)"),
        ("t", "proposer un échange à l'aveugle (1 PA si accepté)"),
        ("s", "stocker des PA sur son personnage (niveaux à 3 et 6)"),
        ("o", "utiliser le pouvoir du personnage"),
        ("e", "finir son tour"),
        (
            "u",
            "reprendre sa dernière action de ce tour (pas après une pioche, un événement, un tirage au hasard ou la décision d'un autre joueur)",
        ),
        ("h", "conseil : les trois meilleurs coups de l'experte d'après ce que vous voyez"),
        ("espace", "accélérer les bots"),
        ("? / F1", "cette aide ; c : les cartes ; l : tout le journal"),
        ("v", "les événements en cours, en entier"),
        ("ctrl+s", "sauvegarder sous un nom (la partie est aussi sauvée après chaque action)"),
        ("ctrl+b", "céder sa place à un bot (un joueur qui s'en va)"),
        ("m", "à une table du serveur : écrire un message à la table"),
        ("a", "à une table du serveur : passer seul quand on ne peut pas annuler"),
        ("q / ctrl+q", "quitter (la partie est sauvegardée)"),
    ],
    "en": [
        ("↑ ↓ / 1–9", "select a card in the hand"),
        ("p / Enter", "play the selected card (effect and target in a dialog)"),
        ("b", "put the card in your deck (Écolos, phase 1, 1 PA)"),
        ("x", "discard the card for PA (once per turn)"),
        ("d", "draw (1 PA, once per turn; not Écolos in phase 2)"),
        ("t", "propose a blind trade (1 PA if accepted)"),
        ("s", "store PA on your character (levels at 3 and 6)"),
        ("o", "use your character's power"),
        ("e", "end your turn"),
        (
            "u",
            "take back your last move of this turn (not after a draw, an event, a random draw or another player's decision)",
        ),
        ("h", "hint: the expert's three best moves from what you can see"),
        ("space", "hurry the bots"),
        ("? / F1", "this help; c: the cards; l: the whole log"),
        ("v", "the active events, in full"),
        ("ctrl+s", "save under a name (the game also autosaves after every action)"),
        ("ctrl+b", "hand your seat to a bot (a player who leaves)"),
        ("m", "at a table server: write a line to the table"),
        ("a", "at a table server: pass by yourself where you cannot cancel"),
        ("q / ctrl+q", "quit (the game is saved)"),
    ],
}

LEGEND = {
    "fr": [
        ("PV", "points de vie de l'écosystème, la jauge de 0 à 30"),
        ("PA", "points d'action : payent cartes et actions (10 au plus)"),
        ("É / L", "Écolo / Lobbyiste"),
        ("▶ / ?", "joue son tour / doit décider maintenant"),
        ("◆", "PA stockés sur le personnage : niveau 2 à 3, niveau 3 à 6"),
        ("N1 N2 N3", "niveau du pouvoir ; chaque niveau le rend moins cher"),
        ("✋ / ▤", "cartes en main / cartes dans le deck (Écolos)"),
        ("ANT OCE TER ATM", "types : anthropique, océanique, terrestre, atmosphérique"),
        ("3PA  2(3)", "coût ; entre parenthèses le coût imprimé quand il change"),
        ("▸", "la carte choisie, décrite en entier sous la main"),
        ("2 t", "tours qu'il reste à un événement"),
    ],
    "en": [
        ("PV", "the ecosystem's health points, the 0–30 gauge"),
        ("PA", "action points: they pay cards and actions (10 at most)"),
        ("É / L", "Écolo / Lobbyiste"),
        ("▶ / ?", "playing their turn / must decide now"),
        ("◆", "PA stored on the character: level 2 at 3, level 3 at 6"),
        ("L1 L2 L3", "power level; each level makes it cheaper"),
        ("✋ / ▤", "cards in hand / cards in the deck (Écolos)"),
        ("ANT OCE TER ATM", "types: anthropic, oceanic, terrestrial, atmospheric"),
        ("3PA  2(3)", "cost; the printed cost in brackets when it changes"),
        ("▸", "the selected card, told in full under the hand"),
        ("2 r", "rounds an event has left"),
    ],
}

RULES = {
    "fr": """Deux phases de 5 tours. Chaque tour : un événement est révélé, puis les Écolos jouent, puis les Lobbyistes.
Début de tour : on gagne des PA (plafond 10) et on pioche gratuitement selon la configuration.
Actions : jouer une carte (coût en PA), mettre au deck, défausser (rapporte des PA), piocher, échanger, stocker, pouvoir.
Main limitée à 6 : l'excédent est défaussé sans PA. Pioche vide = pénurie, jamais de remélange.
Annulations (Objection, Business as usual, Boycott, Manifestation…) : hors tour, avant la résolution.
Fenêtre de réaction : chaque adversaire est invité en même temps, quelques secondes ; sans réponse, on laisse faire.
À un seul écran, « Quelqu'un réagit ? » : pour annuler, appuyez sur votre numéro ; Espace : personne.
Phase 1 : les Écolos construisent un deck secret (6 cartes au plus).
Transition : synergies (mono-type +2 PV ; 4 types +2 cartes), le deck devient la main, puis 0/30 met fin à la partie.
Phase 2 : Écolos +1 PA par tour (3 en 1v1), pas de pioche ni d'échange, cartes 1 PA moins chères (frugalité).
Fin : après le tour 10, les Écolos gagnent avec 15 PV ou plus (10 en mode Découverte).""",
    "en": """Two phases of 5 rounds. Each round: an event is revealed, then the Écolos play, then the Lobbyistes.
Start of turn: gain PA (cap 10) and draw free cards as the configuration says.
Actions: play a card (PA cost), put in deck, discard (earns PA), draw, trade, store PA, power.
Hand limit 6: the excess is discarded with no PA. Empty pile = shortage, never reshuffled.
Cancellations (Objection, Business as usual, Boycott, Manifestation…): out of turn, before resolution.
Reaction window: every opponent is asked at once, for a few seconds; no answer lets it happen.
At one screen, "Anyone to react?": to cancel, press your number; Space: nobody.
Phase 1: the Écolos build a secret deck (6 cards at most).
Transition: synergies (single type +2 PV; 4 types +2 cards), the deck becomes the hand, then 0/30 ends the game.
Phase 2: Écolos +1 PA per turn (3 in 1v1), no draw nor trade, cards cost 1 PA less (frugality).
End: after round 10, the Écolos win with 15 PV or more (10 in Discovery mode).""",
}


class HelpScreen(ModalScreen[None]):
    DEFAULT_CSS = """
    HelpScreen { align: center middle; }
    HelpScreen TabbedContent { width: 96%; height: 92%; border: thick $accent; background: $surface; }
    HelpScreen VerticalScroll { padding: 0 1; }
    """
    BINDINGS = [
        Binding("escape,q,question_mark,f1", "close", "close"),
        Binding("c", "show('cards')", show=False),
        Binding("left", "tab(-1)", show=False, priority=True),
        Binding("right", "tab(1)", show=False, priority=True),
    ]

    def __init__(self, tr, tab: str = "keys"):
        super().__init__()
        self.tr = tr
        self.tab = tab

    def compose(self) -> ComposeResult:
        tr = self.tr
        with TabbedContent(initial=self.tab):
            with TabPane(tr("help.keys"), id="keys"), VerticalScroll():
                yield Static(self._keys())
            with TabPane(tr("help.rules"), id="rules"), VerticalScroll():
                yield Static(RULES[tr.lang])
            with TabPane(tr("help.cards"), id="cards"), VerticalScroll():
                yield Static(self._cards())
            with TabPane(tr("help.characters"), id="characters"), VerticalScroll():
                yield Static(self._characters())
            with TabPane(tr("help.events"), id="events"), VerticalScroll():
                yield Static(self._events())

    def on_mount(self) -> None:
        self._focus_page()

    def on_tabbed_content_tab_activated(self, event) -> None:
        self._focus_page()

    def _focus_page(self) -> None:
        """The shown page has the focus: ↓, PageDown, Home and End scroll it at once."""
        content = self.query_one(TabbedContent)
        pane = content.get_pane(content.active) if content.active else None
        if pane is not None:
            pane.query_one(VerticalScroll).focus()

    def _keys(self) -> Text:
        out = Text()
        import textwrap

        # Two columns; a long description wraps under itself, not under the key.
        width = max(30, (self.app.size.width * 96 // 100) - 22)
        session = getattr(self.app, "session", None)
        view = session.view() if session is not None else None
        for key, what in (
            KEYS[self.tr.lang] + [("", ""), (self.tr("help.legend"), "")] + LEGEND[self.tr.lang]
        ):
            if key == "x" and view is not None and not view.spectator:  # what it gives now
                what += self.tr("help.discard_now", n=view.discard_yield)
            out.append(f"{key:<16}", style="bold")
            out.append("\n".join(textwrap.wrap(what, width)).replace("\n", "\n" + " " * 16) + "\n")
        out.append("\n" + self.tr("help.close"), style="dim")
        return out

    def _cards(self) -> Text:
        tr = self.tr
        out = Text()
        for card in tr.content.cards.values():
            out.append(f"{tr.card(card.id):<28}", style="bold")
            out.append(f"{tr('type.' + card.type)} {card.cost} PA ×{card.copies}  ")
            out.append(tr.card_text(card.id) + "\n", style="dim")
        return out

    def _characters(self) -> Text:
        tr = self.tr
        out = Text()
        for char in tr.content.characters.values():
            label = f" {tr('label.' + char.label)}" if char.label else ""
            costs = "/".join(str(level.cost) for level in char.power.levels)
            out.append(
                f"{char.name} — {tr.role(char.id)} ({tr('side.' + char.side)}{label}, {'★' * char.stars})\n",
                style="bold",
            )
            out.append(f"  {tr.power(char.id)} [{costs} PA]: {tr.power_text(char.id)}\n")
        return out

    def _events(self) -> Text:
        tr = self.tr
        out = Text()
        for event in tr.content.events.values():
            turns = tr("events.turns", n=event.duration)
            out.append(f"{tr.event(event.id):<32}", style="bold")
            out.append(f"{turns} ×{event.copies}  ")
            out.append(tr.event_text(event.id) + "\n", style="dim")
        return out

    def action_tab(self, step: int) -> None:
        tabs = ["keys", "rules", "cards", "characters", "events"]
        content = self.query_one(TabbedContent)
        content.active = tabs[(tabs.index(content.active) + step) % len(tabs)]

    def action_show(self, tab: str) -> None:
        self.query_one(TabbedContent).active = tab

    def action_close(self) -> None:
        self.dismiss(None)
