"""French and English for every UI string; card, character and event texts come from `rules/`."""

from __future__ import annotations

import os
import re
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..content import Content


def card_id(instance: str) -> str:
    return instance.partition("#")[0]


LANGS = ("fr", "en")
# "de" before a vowel or a mute h becomes "d'" (names come from players and rules).
ELISION = re.compile(r"(?<![\w'])de (?=[AEIOUYHÉÈÊÀÂÎÔaeiouyhéèêàâîô])")


def detect_lang(environ=None) -> str:
    """fr* in LC_ALL, LC_MESSAGES or LANG (first one set) gives French, anything else English."""
    environ = os.environ if environ is None else environ
    for key in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = environ.get(key)
        if value:
            return "fr" if value.lower().startswith("fr") else "en"
    return "en"


def describe_meta(tr, meta: dict) -> str:
    """A save's one-line summary from its [meta]: the load screen and `list` agree."""
    if meta.get("finished"):
        state = tr("load.finished", band=tr("band." + meta.get("outcome", "orageux")))
    else:
        state = tr(
            "phase_turn",
            phase=meta.get("phase", "?"),
            turn=meta.get("round_in_phase", "?"),
            of=meta.get("rounds_per_phase", "?"),
        )
    return f"{meta.get('configuration', '?')} · {state} · {meta.get('hp', '?')} PV"


def plural(text: str, n: int) -> str:
    """ "carte(s)" said right for `n`: "1 carte", "2 cartes" (and "card(s)" likewise)."""
    return text.replace("(s)", "" if abs(n) == 1 else "s")


STRINGS: dict[str, dict[str, str]] = {
    "fr": {
        "pitch": "Les Écolos restaurent l'écosystème, les Lobbyistes le ruinent.",
        "menu.new": "Nouvelle partie",
        "menu.load": "Charger une partie",
        "menu.help": "Règles et touches",
        "menu.quit": "Quitter",
        "menu.no_saves": "(aucune sauvegarde)",
        "title.keys": "↑↓ choisir · Entrée valider · q quitter",
        "new.title": "Nouvelle partie",
        "new.config": "Configuration",
        "new.seat": "Place",
        "new.human": "humain",
        "new.bot": "bot",
        "bot.heuristic": "heuristique",
        "bot.expert": "expert",
        "bot.random": "au hasard",
        "new.events": "Événements",
        "new.events_on": "oui",
        "new.events_off": "non (mode Découverte)",
        "new.ask_all": "Demander à chaque humain",
        "new.seed": "Graine",
        "new.seed_random": "au hasard",
        "new.start": "Commencer la partie",
        "new.keys": "↑↓ ligne · ←→ changer · espace humain/bot · 0-9 graine · Entrée jouer · Échap",
        "new.difficulty": "difficulté",
        "new.fair": "conseillée",
        "random": "au hasard",
        "yes": "oui",
        "no": "non",
        "side.ecologist": "Écolo",
        "side.lobbyist": "Lobby",
        "side.ecologists": "les Écolos",
        "side.lobbyists": "les Lobbyistes",
        "label.balanced": "⚖️ équilibré",
        "label.hard": "🔥 difficile",
        "label.deadly": "☠️ redoutable",
        "type.anthropique": "ANT",
        "type.oceanique": "OCE",
        "type.terrestre": "TER",
        "type.atmospherique": "ATM",
        "phase_turn": "Phase {phase} · Tour {turn}/{of}",
        "mulligan_stage": "Mise en place",
        "transition_stage": "Transition",
        "over_stage": "Partie terminée",
        "gauge": "Écosystème",
        "gauge.start": "départ {hp}",
        "gauge.win": "victoire ≥ {hp}",
        "players": "Joueurs",
        "events": "Événements",
        "events.none": "aucun événement actif",
        "events.off": "mode Découverte : pas d'événements",
        "events.turns": "{n} t",
        "hand_of": "Main de {name} ({n})",
        "hand.last_round": " · défaussée en fin de phase",
        "deck": "Deck ({n})",
        "deck.lobbyist": "Public",
        "deck.synergy_mono": "mono-type : +2 PV",
        "deck.synergy_four": "4 types : +2 cartes",
        "deck.synergy_none": "pas de synergie",
        "deck.synergy_short": "synergie dès {n} cartes",
        "deck.public_line": "pioche {draw} · déf. {discard}",
        "log": "Journal",
        "saved": "Sauvegardé {time}",
        "pa": "PA",
        "cost_eff": "{cost} PA",
        "cancel_text": "annule (réaction)",
        "level_short": "N",
        "key.play": "jouer",
        "key.deck": "deck",
        "key.discard": "défausser",
        "key.draw": "piocher",
        "key.trade": "échanger",
        "key.store": "stocker",
        "key.power": "pouvoir",
        "key.end": "fin",
        "key.help": "aide",
        "key.save": "sauver",
        "key.quit": "quitter",
        "key.cards": "cartes",
        "key.log": "journal",
        "key.events": "événements",
        "key.hand_over": "céder sa place",
        "key.chat": "message à la table",
        "net.taken_over": "Votre place est maintenant jouée depuis une autre connexion : vous voici au salon.",
        "spectating": "Spectateur",
        "spectating.body": "Vous regardez la table : vous ne voyez que ce qui est public.",
        "key.auto_pass": "passer seul quand on ne peut pas annuler",
        "auto_pass.on": "Vous passerez seul quand vous ne pouvez rien annuler (a : revenir).",
        "window.clock": "Sans réponse dans {s} s : laisser faire.",
        "window.left": "réactions : {s} s",
        "window.title": "Quelqu'un réagit ?",
        "window.speak": "Pour annuler, appuyez sur votre numéro :  {seats}",
        "window.shared_clock": "Espace : personne ne réagit · sans réponse dans {s} s, on laisse faire.",
        "window.privacy": "{name} réagit : les autres ne regardent plus. Entrée quand c'est prêt.",
        "auto_pass.off": "On vous demandera à chaque annonce adverse (a : passer seul).",
        "lobby.title": "Weathering · les tables",
        "lobby.connected": "Connecté comme {name}",
        "lobby.offline": "Lien avec le serveur coupé : reconnexion…",
        "lobby.none": "Aucune table pour l'instant : n pour en créer une.",
        "lobby.keys": "↑↓ table · Entrée s'asseoir ou reprendre sa place · w regarder · n nouvelle table · q quitter",
        "lobby.free": "libre",
        "lobby.free_n": "{n} place(s) libre(s)",
        "lobby.away": "absent",
        "lobby.waiting": "en attente",
        "lobby.create_config": "Nouvelle table : configuration",
        "lobby.create_humans": "Combien de joueurs humains (les autres places sont des bots) ?",
        "lobby.humans_n": "{n} humain(s)",
        "lobby.pick_seat": "Quelle place ?",
        "lobby.code_prompt": "Code pour s'asseoir (vide : table ouverte à tous), Entrée valider",
        "lobby.code_ask": "Cette table demande un code : tapez-le puis Entrée",
        "lobby.no_seat": "Aucune place libre à cette table : w pour regarder.",
        "wait.title": "Table {table} : on attend les joueurs",
        "wait.keys": "La partie commence quand son créateur le décide · Échap quitter la table",
        "wait.keys_creator": "s commencer (les places vides deviennent des bots) · Échap quitter la table",
        "notice.started": "La partie commence.",
        "notice.away": "{name} a perdu le lien : sa place l'attend.",
        "notice.back": "{name} est de retour.",
        "notice.paused": "La table est en pause : son stockage ne répond plus. Rien n'est perdu ; le jeu reprend tout seul.",
        "notice.resumed": "La partie reprend.",
        "notice.moving": "Le serveur de la table s'est arrêté : un autre la reprend, rien n'est perdu.",
        "notice.bot": "{name} est absent depuis trop longtemps : un bot joue pour lui.",
        "chat.prompt": "Message à la table (Entrée envoyer, Échap retour)",
        "hand_over.title": "{name} quitte la partie ?",
        "hand_over.yes": "Oui : un bot joue la place de {name} jusqu'à la fin",
        "hand_over.no": "Non, continuer",
        "key.skip": "accélérer",
        "key.decide": "décider",
        "waiting_bot": "{name} réfléchit…",
        "your_turn": "À {name} de jouer",
        "decide_prompt": "{name} doit décider : Entrée",
        "privacy.title": "Passez le clavier à {name} ({side})",
        "privacy.body": "Appuyez sur Entrée quand {prev} ne regarde plus.",
        "privacy.body_first": "Appuyez sur Entrée quand vous êtes prêt·e.",
        "small": "Terminal trop petit : {w}×{h}. Agrandissez-le à 80×24 au moins (q : quitter, la partie est sauvegardée).",
        "choose.play": "Jouer {card}",
        "choose.cartouche": "Choisissez l'effet et la cible",
        "choose.store": "Combien de PA stocker ?",
        "choose.power": "Pouvoir : {power}",
        "choose.trade": "Échanger avec qui ? (1 PA si accepté)",
        "trade.explain": "Chacun donne une carte de sa main sans la montrer. Refusé, il ne coûte rien.",
        "power.cost": "Coût à votre niveau : {cost} PA",
        "back": "Échap : retour",
        "mulligan.title": "Mauvaise pioche ? (une seule fois)",
        "mulligan.keep": "Garder ma main",
        "mulligan.put": "Remettre sous la pioche : {cards}",
        "mulligan.done": "C'est tout : remettre {n} carte(s) et en repiocher autant",
        "mulligan.picked": "Déjà remises : {cards}",
        "react.title": "{name} peut réagir",
        "react.announce": "{actor} annonce : {what}",
        "react.event": "Événement révélé : {event}",
        "react.pass": "Laisser faire",
        "react.power": "Annuler avec {power} ({cost} PA)",
        "react.card": "Annuler avec {card} ({cost} PA)",
        "trade.title": "{name} : {initiator} propose un échange à l'aveugle",
        "trade.accept": "Accepter (chacun choisit la carte qu'il donne)",
        "trade.refuse": "Refuser",
        "discard.title": "{name} : défaussez une carte ({n} restante(s), sans PA)",
        "discard.overflow": "{name} : main pleine, défaussez jusqu'à 6 ({n} carte(s), sans PA)",
        "discard.stop": "Arrêter là",
        "give.title": "{name} : donnez une carte à {target} ({n} au plus)",
        "give.stop": "Ne plus rien donner",
        "take.title": "{name} : prenez une carte dans la défausse",
        "exchange.title": "{name} : choisissez la carte que vous donnez à {other}",
        "option.title": "{name} : choisissez ({source})",
        "option.group": "{name} décide pour le groupe Écolo ({source})",
        "arrange.title": "{name} : remettez les cartes vues dans l'ordre choisi (haut d'abord)",
        "arrange.bottom": "{card} sous la pile",
        "second.title": "{name} : jouez la seconde carte {card}",
        "synergy.title": "{name} : synergie du deck",
        "synergy.none": "Votre deck n'a pas de synergie (mono-type ou 4 types) : rien à annoncer. Tous les Écolos sont interrogés, pour ne rien trahir.",
        "synergy.claim_mono": "Annoncer mono-type : +2 PV (montre les types du deck)",
        "synergy.claim_four": "Annoncer 4 types : +2 cartes au deck (montre les types)",
        "synergy.decline": "Ne rien annoncer (garder les types secrets)",
        "target": "→ {name}",
        "opt.heal": "+{n} PV",
        "opt.damage": "−{n} PV",
        "opt.lose_ap": "perdre {n} PA",
        "opt.discard_own": "défausser {n} carte",
        "opt.income_mod": "{who} gagne {n} PA de moins",
        "action.play_card": "joue {card}",
        "action.put_in_deck": "met une carte dans son deck",
        "action.discard": "défausse {card}",
        "action.draw": "pioche",
        "action.trade": "échange avec {target}",
        "action.store_ap": "stocke {amount} PA",
        "action.use_power": "utilise {power}",
        "end.title": "Fin de partie",
        "end.final": "Écosystème final : {hp}/30",
        "end.winner": "Victoire : {side}",
        "end.perfect": "victoire parfaite",
        "end.chart": "PV tour par tour",
        "end.summary": "{name:<18} {side:<6} cartes {played:>2}  soins {healed:>2}  dégâts {damaged:>2}  annulations {cancels:>2}",
        "end.back": "Entrée : retour au titre · l : journal",
        "end.back_lobby": "Entrée : retour aux tables · l : journal",
        "band.grand_soleil": "☀ Grand soleil",
        "band.ensoleille": "🌤 Ensoleillé",
        "band.eclaircies": "⛅ Éclaircies",
        "band.orageux": "🌧 Orageux",
        "band.tourmente": "⛈ Tourmente",
        "band.effondrement": "🌪 Effondrement",
        "help.title": "Aide · touches et règles",
        "help.keys": "Touches",
        "help.legend": "Symboles",
        "help.discard_now": " ; en ce moment : +{n} PA",
        "log.close": "Échap : fermer · ↑↓ PgPréc PgSuiv : défiler",
        "help.rules": "Règles",
        "help.cards": "Cartes",
        "help.characters": "Personnages",
        "help.events": "Événements",
        "help.close": "Échap : fermer · ↓ PgSuiv : défiler · ← → : onglets",
        "dialog.keys": "? aide · l journal · q quitter (partie sauvegardée)",
        "cli.list.head": "{name:<32} {updated:<21} partie",
        "cli.list.name": "nom",
        "cli.list.folder": "Sauvegardes dans {folder} :",
        "cli.list.updated": "mise à jour",
        "cli.list.backup": "  ↳ copie précédente {path} : {what}",
        "cli.check.ok": "ok   {path} : {what}, {actions} actions",
        "cli.check.bad": "REFUSÉE  {error}",
        "cli.not_folder": "weathering : {folder} n'est pas un dossier (voir --saves-dir)",
        "cli.cannot_use": "weathering : impossible de sauvegarder dans {folder} : {problem}",
        "cli.humans": "weathering : erreur : --humans va de 0 à {n} en {config}",
        "net.bad_code": "Cette table demande son code (ou trop d'essais : attendez une minute).",
        "net.bad_name": "Une table a besoin d'un nom.",
        "net.full": "Plus de place : le serveur ou la table est plein.",
        "net.name_taken": "Une table porte déjà ce nom.",
        "net.no_table": "Cette table n'existe pas (ou plus).",
        "net.not_creator": "Seul le joueur qui a créé la table la lance.",
        "net.seat_taken": "Cette place n'est plus libre.",
        "net.started": "La partie a commencé : ses places sont prises.",
        "net.one_seat": "Vous avez déjà une place à cette table.",
        "net.rate_limited": "Une ligne de discussion par seconde au plus.",
        "net.stale": "La table a avancé : agissez sur la vue la plus récente.",
        "load.title": "Charger une partie",
        "load.none": "Aucune sauvegarde dans {folder}",
        "load.broken": "illisible : {problem}",
        "load.keys": "↑↓ choisir · Entrée charger · Échap retour",
        "load.finished": "terminée ({band})",
        "quit.saved": "Partie sauvegardée. Pour la reprendre :\n  {command}",
        "save.done": "Sauvegardé sous {name}",
        "save.replace.title": "« {name} » est la sauvegarde d'une autre partie.",
        "save.replace.yes": "Remplacer « {name} » par cette partie",
        "save.replace.no": "Choisir un autre nom",
        "save.failed": "Sauvegarde impossible ({problem}) : la partie continue sans être sauvée.",
        "save.prompt": "Nom de la sauvegarde",
        "transition.title": "Transition : la phase 2 commence",
        "transition.gauge": "Écosystème à la fin de la transition : {hp}/{top}",
        "transition.go": "Jouer la phase 2",
        "transition.nothing": "Aucune synergie annoncée.",
        "save.hint": "Lettres, chiffres, - _ . · Entrée : sauver · Échap : retour",
        "error": "Impossible : {reason}",
        "log.forced": "{name} : un seul choix possible, fait d'office",
        "log.lost_take": "{name} : sans effet, rien à reprendre dans la défausse",
        "log.lost_choice": "{name} : sans effet, aucun choix possible",
    },
    "en": {
        "pitch": "The Écolos restore the ecosystem, the Lobbyistes wreck it.",
        "menu.new": "New game",
        "menu.load": "Load game",
        "menu.help": "Rules & keys",
        "menu.quit": "Quit",
        "menu.no_saves": "(no saves)",
        "title.keys": "↑↓ choose · Enter select · q quit",
        "new.title": "New game",
        "new.config": "Configuration",
        "new.seat": "Seat",
        "new.human": "human",
        "new.bot": "bot",
        "bot.heuristic": "heuristic",
        "bot.expert": "expert",
        "bot.random": "random",
        "new.events": "Events",
        "new.events_on": "on",
        "new.events_off": "off (Discovery mode)",
        "new.ask_all": "Ask every human",
        "new.seed": "Seed",
        "new.seed_random": "random",
        "new.start": "Start the game",
        "new.keys": "↑↓ row · ←→ change · space human/bot · 0-9 seed · Enter start · Esc back",
        "new.difficulty": "difficulty",
        "new.fair": "recommended",
        "random": "random",
        "yes": "yes",
        "no": "no",
        "side.ecologist": "Écolo",
        "side.lobbyist": "Lobby",
        "side.ecologists": "the Écolos",
        "side.lobbyists": "the Lobbyistes",
        "label.balanced": "⚖️ balanced",
        "label.hard": "🔥 hard",
        "label.deadly": "☠️ deadly",
        "type.anthropique": "ANT",
        "type.oceanique": "OCE",
        "type.terrestre": "TER",
        "type.atmospherique": "ATM",
        "phase_turn": "Phase {phase} · Round {turn}/{of}",
        "mulligan_stage": "Setup",
        "transition_stage": "Transition",
        "over_stage": "Game over",
        "gauge": "Ecosystem",
        "gauge.start": "start {hp}",
        "gauge.win": "win ≥ {hp}",
        "players": "Players",
        "events": "Events",
        "events.none": "no active event",
        "events.off": "Discovery mode: no events",
        "events.turns": "{n} r",
        "hand_of": "{name}'s hand ({n})",
        "hand.last_round": " · discarded at phase end",
        "deck": "Deck ({n})",
        "deck.lobbyist": "Public",
        "deck.synergy_mono": "single type: +2 PV",
        "deck.synergy_four": "4 types: +2 cards",
        "deck.synergy_none": "no synergy",
        "deck.synergy_short": "synergy from {n} cards",
        "deck.public_line": "pile {draw} · discard {discard}",
        "log": "Log",
        "saved": "Saved {time}",
        "pa": "PA",
        "cost_eff": "{cost} PA",
        "cancel_text": "cancels (reaction)",
        "level_short": "L",
        "key.play": "play",
        "key.deck": "deck",
        "key.discard": "discard",
        "key.draw": "draw",
        "key.trade": "trade",
        "key.store": "store",
        "key.power": "power",
        "key.end": "end",
        "key.help": "help",
        "key.save": "save",
        "key.quit": "quit",
        "key.cards": "cards",
        "key.log": "log",
        "key.events": "events",
        "key.hand_over": "leave",
        "key.chat": "message the table",
        "net.taken_over": "Your seat is now played from another connection: you are back in the lobby.",
        "spectating": "Spectator",
        "spectating.body": "You are watching the table: you see only what is public.",
        "key.auto_pass": "pass by myself when I cannot cancel",
        "auto_pass.on": "You will pass by yourself when you cannot cancel (a: undo).",
        "window.clock": "No answer within {s} s: let it happen.",
        "window.left": "reactions: {s} s",
        "window.title": "Anyone to react?",
        "window.speak": "To cancel, press your number:  {seats}",
        "window.shared_clock": "Space: nobody reacts · no answer within {s} s lets it happen.",
        "window.privacy": "{name} reacts: the others look away. Press Enter when ready.",
        "auto_pass.off": "You will be asked at every opposing announcement (a: pass by yourself).",
        "lobby.title": "Weathering · the tables",
        "lobby.connected": "Connected as {name}",
        "lobby.offline": "The link to the server is down: reconnecting…",
        "lobby.none": "No table yet: n to create one.",
        "lobby.keys": "↑↓ table · Enter sit or take your seat back · w watch · n new table · q quit",
        "lobby.free": "free",
        "lobby.free_n": "{n} seat(s) free",
        "lobby.away": "away",
        "lobby.waiting": "waiting",
        "lobby.create_config": "New table: configuration",
        "lobby.create_humans": "How many human players (bots take the other seats)?",
        "lobby.humans_n": "{n} human(s)",
        "lobby.pick_seat": "Which seat?",
        "lobby.code_prompt": "Join code (empty: anyone may sit), Enter to confirm",
        "lobby.code_ask": "This table needs a join code: type it, then Enter",
        "lobby.no_seat": "No free seat at this table: w to watch.",
        "wait.title": "Table {table}: waiting for the players",
        "wait.keys": "The game starts when its creator says so · Esc leave the table",
        "wait.keys_creator": "s start (empty seats become bots) · Esc leave the table",
        "notice.started": "The game begins.",
        "notice.away": "{name} lost the link: the seat waits for them.",
        "notice.back": "{name} is back.",
        "notice.paused": "The table is paused: its storage does not answer. Nothing is lost; play resumes by itself.",
        "notice.resumed": "Play resumes.",
        "notice.moving": "The table's server stopped: another one takes it over, nothing is lost.",
        "notice.bot": "{name} has been away too long: a bot plays for them.",
        "chat.prompt": "Message to the table (Enter send, Esc back)",
        "hand_over.title": "Is {name} leaving the game?",
        "hand_over.yes": "Yes: a bot plays {name}'s seat to the end",
        "hand_over.no": "No, go on",
        "key.skip": "hurry",
        "key.decide": "decide",
        "waiting_bot": "{name} is thinking…",
        "your_turn": "{name} to play",
        "decide_prompt": "{name} must decide: Enter",
        "privacy.title": "Pass the keyboard to {name} ({side})",
        "privacy.body": "Press Enter when {prev} is no longer looking.",
        "privacy.body_first": "Press Enter when you are ready.",
        "small": "Terminal too small: {w}×{h}. Please enlarge it to at least 80×24 (q: quit, the game is saved).",
        "choose.play": "Play {card}",
        "choose.cartouche": "Choose the effect and the target",
        "choose.store": "How many PA to store?",
        "choose.power": "Power: {power}",
        "choose.trade": "Trade with whom? (1 PA if accepted)",
        "trade.explain": "Each gives a card from their hand, unseen. A refused trade costs nothing.",
        "power.cost": "Cost at your level: {cost} PA",
        "back": "Esc: back",
        "mulligan.title": "Bad draw? (once only)",
        "mulligan.keep": "Keep my hand",
        "mulligan.put": "Put under the pile: {cards}",
        "mulligan.done": "That's all: put {n} card(s) back and draw as many",
        "mulligan.picked": "Put back so far: {cards}",
        "react.title": "{name} may react",
        "react.announce": "{actor} announces: {what}",
        "react.event": "Event revealed: {event}",
        "react.pass": "Let it happen",
        "react.power": "Cancel with {power} ({cost} PA)",
        "react.card": "Cancel with {card} ({cost} PA)",
        "trade.title": "{name}: {initiator} proposes a blind trade",
        "trade.accept": "Accept (each chooses the card they give)",
        "trade.refuse": "Refuse",
        "discard.title": "{name}: discard a card ({n} to go, no PA)",
        "discard.overflow": "{name}: hand full, discard down to 6 ({n} card(s), no PA)",
        "discard.stop": "Stop here",
        "give.title": "{name}: give a card to {target} (up to {n})",
        "give.stop": "Give nothing more",
        "take.title": "{name}: take a card from the discard pile",
        "exchange.title": "{name}: choose the card you give to {other}",
        "option.title": "{name}: choose ({source})",
        "option.group": "{name} decides for the Écolo group ({source})",
        "arrange.title": "{name}: put the cards back in the chosen order (top first)",
        "arrange.bottom": "{card} to the bottom",
        "second.title": "{name}: play the second card {card}",
        "synergy.title": "{name}: deck synergy",
        "synergy.none": "Your deck has no synergy (single type or 4 types): nothing to claim. Every Écolo is asked, so that nothing gives it away.",
        "synergy.claim_mono": "Claim single type: +2 PV (shows the deck's types)",
        "synergy.claim_four": "Claim 4 types: +2 cards to the deck (shows the types)",
        "synergy.decline": "Claim nothing (keep the types secret)",
        "target": "→ {name}",
        "opt.heal": "+{n} PV",
        "opt.damage": "−{n} PV",
        "opt.lose_ap": "lose {n} PA",
        "opt.discard_own": "discard {n} card",
        "opt.income_mod": "{who} gains {n} PA less",
        "action.play_card": "plays {card}",
        "action.put_in_deck": "puts a card in their deck",
        "action.discard": "discards {card}",
        "action.draw": "draws",
        "action.trade": "trades with {target}",
        "action.store_ap": "stores {amount} PA",
        "action.use_power": "uses {power}",
        "end.title": "Game over",
        "end.final": "Final ecosystem: {hp}/30",
        "end.winner": "Victory: {side}",
        "end.perfect": "perfect victory",
        "end.chart": "PV round by round",
        "end.summary": "{name:<18} {side:<6} cards {played:>2}  healed {healed:>2}  damaged {damaged:>2}  cancels {cancels:>2}",
        "end.back": "Enter: back to the title · l: log",
        "end.back_lobby": "Enter: back to the tables · l: log",
        "band.grand_soleil": "☀ Blazing sun",
        "band.ensoleille": "🌤 Sunny",
        "band.eclaircies": "⛅ Sunny spells",
        "band.orageux": "🌧 Stormy",
        "band.tourmente": "⛈ Tempest",
        "band.effondrement": "🌪 Collapse",
        "help.title": "Help · keys and rules",
        "help.keys": "Keys",
        "help.legend": "Symbols",
        "help.discard_now": "; right now: +{n} PA",
        "log.close": "Esc: close · ↑↓ PgUp PgDn: scroll",
        "help.rules": "Rules",
        "help.cards": "Cards",
        "help.characters": "Characters",
        "help.events": "Events",
        "help.close": "Esc: close · ↓ PgDn: scroll · ← →: tabs",
        "dialog.keys": "? help · l log · q quit (game saved)",
        "cli.list.head": "{name:<32} {updated:<21} game",
        "cli.list.name": "name",
        "cli.list.folder": "Saves in {folder}:",
        "cli.list.updated": "updated",
        "cli.list.backup": "  ↳ previous copy {path}: {what}",
        "cli.check.ok": "ok   {path}: {what}, {actions} actions",
        "cli.check.bad": "BAD  {error}",
        "cli.not_folder": "weathering: {folder}: not a folder (see --saves-dir)",
        "cli.cannot_use": "weathering: cannot use {folder} for saves: {problem}",
        "cli.humans": "weathering: error: --humans must be 0 to {n} for {config}",
        "net.bad_code": "This table needs its join code (or too many tries: wait a minute).",
        "net.bad_name": "A table needs a name.",
        "net.full": "No room left: the server or the table is full.",
        "net.name_taken": "A table has that name already.",
        "net.no_table": "There is no such table (any more).",
        "net.not_creator": "Only the player who created the table starts it.",
        "net.seat_taken": "That seat is not free any more.",
        "net.started": "The game has started: its seats are taken.",
        "net.one_seat": "You already hold a seat at this table.",
        "net.rate_limited": "One chat line a second at most.",
        "net.stale": "The table has moved on: act on the newest view.",
        "load.title": "Load a game",
        "load.none": "No saves in {folder}",
        "load.broken": "unreadable: {problem}",
        "load.keys": "↑↓ choose · Enter load · Esc back",
        "load.finished": "finished ({band})",
        "quit.saved": "Game saved. To resume it:\n  {command}",
        "save.done": "Saved as {name}",
        "save.replace.title": '"{name}" is the save of another game.',
        "save.replace.yes": 'Replace "{name}" with this game',
        "save.replace.no": "Choose another name",
        "save.failed": "Cannot save ({problem}): the game goes on unsaved.",
        "save.prompt": "Save name",
        "transition.title": "Transition: phase 2 begins",
        "transition.gauge": "Ecosystem at the end of the transition: {hp}/{top}",
        "transition.go": "Play phase 2",
        "transition.nothing": "No synergy claimed.",
        "save.hint": "Letters, digits, - _ . · Enter: save · Esc: back",
        "error": "Not possible: {reason}",
        "log.forced": "{name}: only one choice, made for them",
        "log.lost_take": "{name}: no effect, nothing to take from the discard pile",
        "log.lost_choice": "{name}: no effect, no possible choice",
    },
}


class Tr:
    """Translations for one language over one set of rules."""

    def __init__(self, lang: str, content: Content | None = None):
        self.lang = lang if lang in LANGS else "en"
        self._content = content
        self.strings = STRINGS[self.lang]

    @property
    def content(self) -> Content:
        """The rules files, loaded on first use."""
        if self._content is None:
            from ..content import default_content

            self._content = default_content()
        return self._content

    def __call__(self, key: str, **values) -> str:
        text = self.strings[key].format(**values)
        if isinstance(values.get("n"), int):
            text = plural(text, values["n"])
        if self.lang == "fr" and values:
            text = ELISION.sub("d'", text)  # "Main d'Insatiable", "la place d'Amir"
        return text

    def card(self, instance_or_id: str) -> str:
        card = self.content.cards[card_id(instance_or_id)]
        return card.name_fr if self.lang == "fr" else card.name_en

    def card_text(self, instance_or_id: str) -> str:
        card = self.content.cards[card_id(instance_or_id)]
        return card.text_fr if self.lang == "fr" else card.text_en

    def event(self, instance_or_id: str) -> str:
        event = self.content.events[card_id(instance_or_id)]
        return event.name_fr if self.lang == "fr" else event.name_en

    def event_text(self, instance_or_id: str) -> str:
        event = self.content.events[card_id(instance_or_id)]
        return event.text_fr if self.lang == "fr" else event.text_en

    def power(self, character_id: str) -> str:
        power = self.content.characters[character_id].power
        return power.name_fr if self.lang == "fr" else power.name_en

    def power_by_id(self, power_id: str) -> str:
        for char in self.content.characters.values():
            if char.power.id == power_id:
                return self.power(char.id)
        return power_id

    def power_text(self, character_id: str) -> str:
        power = self.content.characters[character_id].power
        return power.text_fr if self.lang == "fr" else power.text_en

    def role(self, character_id: str) -> str:
        char = self.content.characters[character_id]
        return char.role_fr if self.lang == "fr" else char.role_en

    def source(self, source: str) -> str:
        """A log source: a card, an event, a power id or a rule word."""
        if source in self.content.cards:
            return self.card(source)
        if source in self.content.events:
            return self.event(source)
        for char in self.content.characters.values():
            if char.power.id == source:
                return self.power(char.id)
        return source


# Why an action is refused: one sentence per `IllegalAction` code, in each language.
REFUSALS: dict[str, dict[str, str]] = {
    "fr": {
        "game_over": "la partie est finie",
        "nobody_to_decide": "personne n'a de décision à prendre",
        "not_your_decision": "ce n'est pas à vous de décider ({waiting})",
        "wrong_decision": "une autre décision est attendue ({expected})",
        "card_not_in_hand": "{card} n'est pas dans votre main",
        "card_cost": "{card} coûte {cost} PA et vous en avez {ap}",
        "no_cartouche": "{card} n'a pas ce cartouche",
        "cancel_in_reaction": "{card} ne se joue qu'en réaction à l'action d'un autre joueur",
        "bad_target": "cette cible ne convient pas à cette carte",
        "deck_ecologists_only": "seuls les Écolos construisent un deck",
        "deck_phase_one": "le deck se construit en phase 1 seulement",
        "deck_full": "le deck contient déjà {limit} cartes",
        "deck_cost": "mettre une carte au deck coûte {cost} PA",
        "discard_once": "une seule défausse par tour",
        "draw_golden_rule": "les Écolos ne piochent pas en phase 2 (règle d'or)",
        "draw_once": "une seule pioche par tour",
        "draw_pile_empty": "la pioche est vide",
        "draw_cost": "piocher coûte {cost} PA",
        "trade_once": "un seul échange proposé accepté par tour",
        "trade_phase_two": "les Écolos ne proposent ni n'acceptent d'échange en phase 2",
        "trade_cost": "un échange coûte {cost} PA",
        "trade_needs_cards": "un échange demande une carte dans chaque main",
        "trade_partner_twice": "vous avez déjà proposé un échange à {partner} ce tour-ci",
        "trade_bad_partner": "ce joueur ne peut pas être partenaire d'échange",
        "store_range": "vous pouvez stocker de 1 à {ap} PA",
        "power_in_reaction": "{power} s'utilise en réaction à l'action d'un autre joueur",
        "power_once": "le pouvoir s'utilise une fois par tour",
        "power_cost": "{power} coûte {cost} PA",
        "power_first_action": "{power} doit être la première action du tour",
        "power_needs_play": "{power} demande d'avoir joué une carte ce tour-ci",
        "power_bad_choice": "cette cible ou cette carte ne convient pas à {power}",
        "cancel_unavailable": "cette annulation n'est pas possible (coût, carte ou pouvoir déjà utilisé)",
        "card_not_choosable": "cette carte ne peut pas être choisie ici",
        "mulligan_full": "au plus {max} cartes retournent sous la pioche",
        "not_an_option": "ce choix n'est pas proposé maintenant",
        "offline": "le lien avec la table est coupé : rien n'a été envoyé (reconnexion en cours)",
        "unknown_configuration": "configuration inconnue : {configuration}",
        "seat_order": "la configuration {configuration} veut {ecologists} place(s) Écolo puis {lobbyists} place(s) Lobbyiste, dans cet ordre",
        "character_twice": "un personnage ne joue qu'une fois par partie",
        "unknown_character": "personnage inconnu : {character}",
        "character_side": "{character} ne joue pas dans ce camp ({side})",
    },
    "en": {
        "game_over": "the game is over",
        "nobody_to_decide": "nobody has a decision to make",
        "not_your_decision": "it is not your decision ({waiting})",
        "wrong_decision": "another decision is expected ({expected})",
        "card_not_in_hand": "{card} is not in your hand",
        "card_cost": "{card} costs {cost} PA and you have {ap}",
        "no_cartouche": "{card} has no such cartouche",
        "cancel_in_reaction": "{card} is played only in reaction to another player's action",
        "bad_target": "that target does not suit this card",
        "deck_ecologists_only": "only Écolos build a deck",
        "deck_phase_one": "decks are built in phase 1 only",
        "deck_full": "the deck already holds {limit} cards",
        "deck_cost": "putting a card in the deck costs {cost} PA",
        "discard_once": "one discard a turn",
        "draw_golden_rule": "Écolos do not draw in phase 2 (golden rule)",
        "draw_once": "one draw a turn",
        "draw_pile_empty": "the draw pile is empty",
        "draw_cost": "drawing costs {cost} PA",
        "trade_once": "one accepted trade a turn",
        "trade_phase_two": "Écolos neither propose nor accept trades in phase 2",
        "trade_cost": "a trade costs {cost} PA",
        "trade_needs_cards": "a trade needs a card in each hand",
        "trade_partner_twice": "you already proposed a trade to {partner} this turn",
        "trade_bad_partner": "that player cannot be a trade partner",
        "store_range": "you can store 1 to {ap} PA",
        "power_in_reaction": "{power} is used in reaction to another player's action",
        "power_once": "the power is used once a turn",
        "power_cost": "{power} costs {cost} PA",
        "power_first_action": "{power} must be the first action of the turn",
        "power_needs_play": "{power} needs a card played this turn",
        "power_bad_choice": "that target or card does not suit {power}",
        "cancel_unavailable": "that cancellation is not possible (cost, card or power already used)",
        "card_not_choosable": "that card cannot be chosen here",
        "mulligan_full": "at most {max} cards go back under the pile",
        "not_an_option": "that choice is not offered now",
        "offline": "the link to the table is down: nothing was sent (reconnecting)",
        "unknown_configuration": "unknown configuration: {configuration}",
        "seat_order": "configuration {configuration} needs {ecologists} Écolo seat(s) then {lobbyists} Lobbyiste seat(s), in that order",
        "character_twice": "a character plays once a game",
        "unknown_character": "unknown character: {character}",
        "character_side": "{character} does not play on that side ({side})",
    },
}

# What a pending decision is waiting for, in a refusal ("it is not your decision (…)").
WAITING: dict[str, dict[str, str]] = {
    "fr": {
        "turn": "un autre joueur joue son tour",
        "mulligan": "un autre joueur choisit sa re-pioche",
        "react": "on attend les réactions",
        "trade_answer": "un autre joueur répond à un échange",
        "claim_synergy": "un autre joueur annonce sa synergie",
    },
    "en": {
        "turn": "another player is playing their turn",
        "mulligan": "another player is choosing their mulligan",
        "react": "waiting for reactions",
        "trade_answer": "another player is answering a trade",
        "claim_synergy": "another player is claiming a synergy",
    },
}


def render_refusal(tr: Tr, exc, players=()) -> str:
    """An `IllegalAction` in the player's language; `players` (a view's) names the seats."""
    values = dict(exc.params)
    if "card" in values:
        values["card"] = tr.card(values["card"])
    if "power" in values:
        values["power"] = tr.power_by_id(values["power"])
    for key in ("waiting", "expected"):
        if key in values:
            other = "autre décision" if tr.lang == "fr" else "another decision"
            values[key] = WAITING[tr.lang].get(values[key], other)
    partner = values.get("partner")
    if isinstance(partner, int):
        values["partner"] = players[partner].name if 0 <= partner < len(players) else partner
    text = REFUSALS[tr.lang].get(exc.code, REFUSALS[tr.lang]["not_an_option"])
    try:
        return text.format(**values)
    except (KeyError, IndexError, ValueError):  # a refusal without its details
        return REFUSALS[tr.lang]["not_an_option"]
