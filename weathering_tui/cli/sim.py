"""`weathering simulate`, `duel` and `balance`: bots playing whole games, printing figures."""

from __future__ import annotations

import json
import sys

from .words import tr_for as _tr


def simulate(args) -> int:
    from ..content import ContentError
    from ..sim.progress import Progress
    from ..sim.simulate import format_summary
    from ..sim.simulate import simulate as play_games

    ecologists = args.ecologists or args.bots or "random"
    lobbyists = args.lobbyists or args.bots or "random"
    bar = Progress(args.games, _tr(args))
    bar.shown = bar.shown and not args.json  # --json: a tool reads it, nothing else
    try:
        summary = play_games(
            args.games,
            args.config,
            args.seed,
            ecologists,
            args.save_dir,
            lobbyists=lobbyists,
            lobbyist_character=args.lobbyist_character or args.difficulty,
            jobs=args.jobs,
            progress=bar,
        )
    except ContentError as exc:
        bar.close()
        print(_tr(args)("cli.rules_broken"), file=sys.stderr)
        for problem in exc.problems:
            print(f"  {problem}", file=sys.stderr)
        return 2
    bar.close()
    print(json.dumps(summary) if args.json else format_summary(summary))
    return 0


def duel(args) -> int:
    from ..sim import stats
    from ..sim.duel import format_duel, run_duel
    from ..sim.progress import Progress

    try:
        sprt = stats.Sprt(*args.sprt) if args.sprt else None
    except ValueError as problem:
        print(f"weathering duel: error: {problem} (see --help)", file=sys.stderr)
        return 2
    bar = Progress(2 * args.games, _tr(args))
    bar.shown = bar.shown and not args.json
    duel = run_duel(
        args.a,
        args.b,
        args.config,
        args.games,
        args.seed,
        args.workers,
        sprt,
        progress=bar,
        dealt=args.deal,
    )
    bar.close()
    summary = duel.summary(sprt)
    if args.json:
        print(json.dumps(summary))
        return 0
    tr = _tr(args)
    text = format_duel(summary, tr, decimal="," if tr.lang == "fr" else ".")
    if not args.calibration:
        text = "\n".join(line for line in text.splitlines() if not line.startswith("    "))
    print(text)
    return 0


def balance(args) -> int:
    from ..sim.progress import Progress
    from ..sim.simulate import balance, balance_cells, balance_markdown

    tr = _tr(args)
    bar = Progress(args.games * balance_cells(), tr)

    def progress(row):
        bar.close()  # the row in place of the bar, which comes back under it
        low, high = row["ecologist_win_rate_ci95"]
        line = tr(
            "cli.balance.row",
            config=row["configuration"],
            lobbyist=row["lobbyist"],
            rate=row["ecologist_win_rate"],
            low=low,
            high=high,
            hp=row["mean_final_hp"],
            out=row["draw_pile_empty_rate"],
        )
        print(line, flush=True)

    rows = balance(args.games, args.seed, progress, games_done=bar)
    bar.close()
    if args.markdown:
        from pathlib import Path

        command = f"weathering balance --games {args.games} --seed {args.seed}"
        table = balance_markdown(rows, args.games, command)
        Path(args.markdown).write_text(table, encoding="utf-8")
        print(tr("cli.balance.written", path=args.markdown))
    return 0
