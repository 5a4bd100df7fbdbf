"""The `weathering` command line: its options (`build_parser`; usage errors in one line
and the help, in French where asked: cli/words.py), `main`, which hands each command to
its module (`saves.py`: check, list, replay, review; `net.py`: serve, join; `sim.py`:
simulate, duel, balance; `join --bot`: net/headless.py; `export`:
storage/redis_store.py), and playing at this terminal: new, load, learn (`_play`, which
opens the app)."""

from __future__ import annotations

import argparse
import os
import sys

from ..argline import count
from ..content import configuration_ids
from .words import Parser as _Parser
from .words import in_french as _in_french
from .words import tr_for as _tr
from .words import wants_french as _wants_french

CONFIGURATIONS = configuration_ids()  # from the rules, never a literal list
BOT_KINDS = ("random", "heuristic", "expert")
DUEL_BOTS = (
    *("random", "heuristic", "pimc", "expert"),
    *("expert_free", "expert_turn", "expert_deep", "ismcts"),
    *("expert_value", "expert_value_free", "expert_infer", "expert_anchored", "expert_scaled"),
)
DIFFICULTIES = (
    "balanced",
    "hard",
    "deadly",
    "fossilise",
    "au_bras_long",
    "aux_poches_pleines",
    "insatiable",
)


_positive = count  # a whole number of at least 1


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected seconds, got {text!r}") from None
    if not 0 <= value <= 86400:
        raise argparse.ArgumentTypeError(f"expected 0 to 86400 seconds, got {value}")
    return value


def _lifetime(text: str) -> float:
    """Seconds something lives (a table waiting for its players): one at least."""
    value = _seconds(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected 1 to 86400 seconds, got {value}")
    return value


def _seed(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None


def _common(parser, sub: bool = True) -> None:
    # On a subcommand, an option left out must not hide the same option given before it.
    default = argparse.SUPPRESS if sub else None
    _lang(parser, sub)
    parser.add_argument(
        "--saves-dir",
        default=default,
        help="folder of saved games (default: $WEATHERING_SAVES, else the user data folder)",
    )


def _lang(parser, sub: bool = True) -> None:
    """--lang, before the command or after it (`duel --lang fr` was read as a bot's name)."""
    default = argparse.SUPPRESS if sub else None
    parser.add_argument(
        "--lang", choices=("fr", "en"), default=default, help="language (default: the locale)"
    )


def build_parser(french: bool = False) -> argparse.ArgumentParser:
    """The command line's options; `french`: their help in French."""
    parser = _Parser(
        prog="weathering",
        description="Weathering: Écolos restore the ecosystem, Lobbyistes wreck it.",
    )
    _common(parser, sub=False)
    commands = parser.add_subparsers(dest="command", parser_class=_Parser)
    new = commands.add_parser("new", help="start a game straight away")
    _common(new)
    new.add_argument(
        "--config",
        choices=CONFIGURATIONS,
        default="2v1",
        help="X Écolos against Y Lobbyistes (default 2v1); you play the first Écolo",
    )
    new.add_argument(
        "--humans",
        type=int,
        default=1,
        help="human seats (default 1): an Écolo, then a Lobbyiste, then the next Écolo…, "
        "so that two or more humans play on both sides; the others are bots",
    )
    new.add_argument("--seed", type=_seed, help="seed (default: random)")
    new.add_argument("--no-events", action="store_true", help="mode Découverte: no events")
    new.add_argument(
        "--bots",
        choices=BOT_KINDS,
        default="heuristic",
        help="who plays the other seats (default heuristic)",
    )
    new.add_argument(
        "--ask-all",
        action="store_true",
        help="ask every human in each reaction window, even one with no card to cancel "
        "(always so with two humans or more)",
    )
    new.add_argument(
        "--difficulty",
        choices=DIFFICULTIES,
        metavar="LEVEL",
        help="balanced (⚖), hard (🔥), deadly (☠), or a Lobbyiste: fossilise, au_bras_long, "
        "aux_poches_pleines, insatiable (default: the configuration's fair level)",
    )
    load = commands.add_parser("load", help="resume a saved game")
    _common(load)
    load.add_argument("save", metavar="NAME|PATH", help="a save's name (see list) or its path")
    learn = commands.add_parser("learn", help="the guided first game: learn to play")
    _common(learn)
    listing = commands.add_parser("list", help="list saved games")
    _common(listing)
    check = commands.add_parser("check", help="verify save files (exit 0 if all are valid)")
    _common(check)
    check.add_argument("paths", nargs="+", metavar="NAME|PATH")
    replay = commands.add_parser("replay", help="step through a saved game, action by action")
    _common(replay)
    replay.add_argument("save", metavar="NAME|PATH", help="a save's name (see list) or its path")
    replay.add_argument("--at", type=int, metavar="N", help="after the first N actions")
    replay.add_argument(
        "--seat",
        type=int,
        metavar="S",
        help="whose view, from 0 (default: yours; before the game's end, only yours)",
    )
    replay.add_argument(
        "--json", action="store_true", help="print that seat's view as JSON (the wire format)"
    )
    export = commands.add_parser("export", help="write a table kept in Redis as a TOML save")
    export.add_argument("--store", required=True, metavar="redis://HOST:PORT/N")
    export.add_argument("table", help="the table's name (as the lobby shows it) or key")
    export.add_argument("file", help="the save file to write")
    sim = commands.add_parser("simulate", help="play many bot games and print a summary")
    sim.add_argument("--games", type=_positive, default=100, help="number of games (default 100)")
    sim.add_argument("--config", choices=CONFIGURATIONS, default="3v2", help="configuration XvY")
    sim.add_argument("--seed", type=_seed, default=1, help="seed of the first game (default 1)")
    sim.add_argument("--bots", choices=BOT_KINDS, help="bot kind for every seat (both sides)")
    sim.add_argument("--ecologists", choices=BOT_KINDS, help="bot kind of the Écolos")
    sim.add_argument("--lobbyists", choices=BOT_KINDS, help="bot kind of the Lobbyistes")
    sim.add_argument(
        "--lobbyist-character",
        choices=("fossilise", "au_bras_long", "aux_poches_pleines", "insatiable"),
        help="character of the first Lobbyiste (a second one gets a ⚖ partner)",
    )
    _lang(sim)
    sim.add_argument(
        "--difficulty",
        choices=("balanced", "hard", "deadly"),
        help="deal the Lobbyistes as a new game of that difficulty does",
    )
    sim.add_argument(
        "--jobs", type=_positive, default=1, help="processes to spread the games over (default 1)"
    )
    sim.add_argument("--json", action="store_true", help="print one JSON object")
    sim.add_argument("--save-dir", help="write each finished game as a save in this folder")
    srv = commands.add_parser("serve", help="run the table server (players join with `join`)")
    _common(srv)
    srv.add_argument("--socket", help="Unix socket path (default: $XDG_RUNTIME_DIR or /tmp)")
    srv.add_argument("--max-tables", type=_positive, default=50, help="tables at most (50)")
    srv.add_argument("--max-connections", type=_positive, default=256, help="connections (256)")
    srv.add_argument("--max-spectators", type=_positive, default=20, help="per table (20)")
    srv.add_argument(
        "--grace", type=_seconds, default=60.0, help="seconds before a bot plays a gone seat (60)"
    )
    srv.add_argument("--pace", type=_seconds, default=0.6, help="seconds a bot waits (0.6)")
    srv.add_argument(
        "--decision-time",
        type=_seconds,
        default=180.0,
        help="seconds a player may take over one decision before a bot plays for them "
        "until they act again (180; 0: no limit)",
    )
    srv.add_argument(
        "--unstarted-expiry",
        type=_lifetime,
        default=300.0,
        help="seconds an unstarted table nobody else joined waits before it goes (300)",
    )
    srv.add_argument(
        "--store",
        metavar="redis://HOST:PORT/N",
        help="keep the tables in Redis instead of the saves folder (README: Many machines)",
    )
    srv.add_argument("--ssh", metavar="ADDR:PORT", help="also let players in by SSH (asyncssh)")
    srv.add_argument("--host-key", help="SSH host key (default SAVES/ssh_host_ed25519_key)")
    srv.add_argument("--authorized-keys", help="only these public keys may log in by SSH")
    srv.add_argument("--max-ssh", type=_positive, default=64, help="SSH sessions at most (64)")
    srv.add_argument("--max-ssh-per-key", type=_positive, default=3, help="per key (3)")
    srv.add_argument(
        "--max-ssh-per-address", type=_positive, default=8, help="per client address (8)"
    )
    srv.add_argument(
        "--ssh-idle", type=_seconds, default=1800.0, help="idle SSH session closed after (1800 s)"
    )
    join = commands.add_parser("join", help="play at the table server (or let a bot play)")
    _common(join)
    join.add_argument("--socket", help="the server's Unix socket (default: as `serve`)")
    join.add_argument("--bot", choices=BOT_KINDS, help="play a seat with this bot, headless")
    join.add_argument("--table", help="table name (with --bot)")
    join.add_argument("--seat", type=_seed, default=0, help="seat number (with --bot)")
    join.add_argument("--create", choices=CONFIGURATIONS, help="create the table if missing")
    join.add_argument("--humans", type=_positive, default=1, help="open seats of a created table")
    join.add_argument("--code", help="the table's join code")
    join.add_argument("--seed", type=_seed, help="seed of a created table")
    join.add_argument("--identity", help=argparse.SUPPRESS)  # the SSH door and tests
    join.add_argument("--door", action="store_true", help=argparse.SUPPRESS)  # run by the door
    join.add_argument("--origin", help=argparse.SUPPRESS)  # the door's player's network
    join.add_argument("--name", help="your name at the tables (another user shows as itself)")
    rev = commands.add_parser(
        "review", help="your game reviewed: each seat's costliest decisions, and the odds"
    )
    _common(rev)
    rev.add_argument("save", metavar="NAME|PATH", help="a save's name (see list) or its path")
    rev.add_argument(
        "--seat",
        type=int,
        metavar="S",
        help="review this seat only, from 0 (before the game's end: only yours)",
    )
    rev.add_argument(
        "--budget", type=_positive, default=96, help="rollouts per decision (default 96)"
    )
    rev.add_argument("--json", action="store_true", help="print one JSON object")
    duel = commands.add_parser(
        "duel", help="bots against bots: each deal played twice, the sides swapped"
    )
    _lang(duel)
    duel.add_argument("a", choices=DUEL_BOTS, help="the bot measured")
    duel.add_argument("b", choices=DUEL_BOTS, help="its opponent")
    duel.add_argument("--config", choices=CONFIGURATIONS, default="1v1", help="(default 1v1)")
    duel.add_argument("--games", type=_positive, default=50, help="deals, each played twice (50)")
    duel.add_argument("--seed", type=_seed, default=1, help="seed of the first deal (default 1)")
    duel.add_argument("--workers", type=_positive, default=1, help="processes (default 1)")
    duel.add_argument(
        "--deal",
        choices=("fair", "random"),
        default="fair",
        help="fair: the game a new player gets, at its recommended difficulty (default);"
        " random: any characters",
    )
    duel.add_argument(
        "--sprt",
        nargs=2,
        type=float,
        metavar=("P0", "P1"),
        help="stop as soon as A's share is told to be at most P0 or at least P1 (5 %% errors)",
    )
    duel.add_argument("--calibration", action="store_true", help="also print the beliefs by tenth")
    duel.add_argument("--json", action="store_true", help="print one JSON object")
    bal = commands.add_parser(
        "balance", help="heuristic bots in every configuration against every Lobbyiste"
    )
    _lang(bal)
    bal.add_argument("--games", type=_positive, default=100, help="games per cell (default 100)")
    bal.add_argument("--seed", type=_seed, default=1, help="seed of the first game (default 1)")
    bal.add_argument("--markdown", metavar="FILE", help="also write the table to FILE")
    if french:
        _in_french(parser)
    return parser


def main(argv: list[str] | None = None) -> int:
    try:
        return _run(argv)
    except BrokenPipeError:
        # The reader went away (`weathering replay … --json | head`): nothing more is
        # said, and no traceback; the rest of the output goes nowhere (Python's own
        # flush at exit would meet the closed pipe again).
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1


def _run(argv: list[str] | None) -> int:
    args = build_parser(_wants_french(argv)).parse_args(argv)
    if args.command in ("check", "list", "replay", "review"):
        from . import saves

        return getattr(saves, args.command)(args)
    if args.command == "export":
        from ..storage.redis_store import StoreError, export_table
        from ..storage.savefile import SaveError

        try:
            print(export_table(args.store, args.table, args.file))
        except (StoreError, SaveError, OSError) as exc:
            tr = _tr(args)
            text = exc.text(tr.lang) if isinstance(exc, SaveError) else str(exc)
            print(tr("cli.export.failed", problem=text), file=sys.stderr)
            return 1
        return 0
    if args.command == "serve":
        from .net import serve

        return serve(args)
    if args.command == "join" and args.bot:
        if not args.table:
            print(_tr(args)("cli.join.bot_table"), file=sys.stderr)
            return 2
        from ..net.headless import main as headless

        return headless(args)
    if args.command == "join":
        from .net import join

        return join(args)
    if args.command in ("simulate", "duel", "balance"):
        from . import sim

        return getattr(sim, args.command)(args)
    return _play(args)


def _play(args) -> int:

    from ..engine.state import SeatSetup, Setup
    from ..storage.savefile import SaveError, resolve, saves_dir
    from ..words import detect_lang

    lang = args.lang or detect_lang()
    tr = _tr(args)
    folder = saves_dir(args.saves_dir)
    if folder.exists() and not folder.is_dir():
        print(tr("cli.not_folder", folder=folder), file=sys.stderr)
        return 2
    if args.command == "new":
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            print(tr("cli.cannot_use", folder=folder, problem=exc.strerror), file=sys.stderr)
            return 2
    options = {"lang": lang, "saves_dir": folder}
    if args.command == "new":
        from ..engine import sides_of

        eco, lob = sides_of(args.config)
        if not 0 <= args.humans <= eco + lob:
            print(tr("cli.humans", n=eco + lob, config=args.config), file=sys.stderr)
            return 2
        sides = ["ecologist"] * eco + ["lobbyist"] * lob
        from ..engine import human_seats

        humans = human_seats(eco, lob, args.humans)
        seats = tuple(
            SeatSetup(side, human=i in humans, bot=args.bots) for i, side in enumerate(sides)
        )
        import random

        seed = args.seed if args.seed is not None else random.SystemRandom().randrange(10**6)
        from ..content import default_content
        from ..engine import with_difficulty

        content = default_content()
        level = args.difficulty or content.configurations[args.config].recommended_label
        options["setup"] = with_difficulty(
            Setup(
                args.config,
                seats,
                seed=seed,
                events=not args.no_events,
                # several players at one terminal: all are asked, whatever they hold
                ask_every_human=args.ask_all or args.humans > 1,
            ),
            level,
            content,
        )
    elif args.command == "learn":
        options["learn"] = True
    elif args.command == "load":
        from ..storage.savefile import read_save

        # The very verification `check` runs: a refused file never opens the app.
        try:
            options["game"] = read_save(resolve(args.save, folder))
        except SaveError as exc:
            print(f"weathering: {exc.text(lang)}", file=sys.stderr)
            return 2
    from ..tui.app import WeatheringApp

    app = WeatheringApp(**options)
    app.run()
    if app.goodbye:
        print(app.goodbye, flush=True)
    return app.return_code or 0
