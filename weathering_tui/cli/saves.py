"""The commands that read saves without playing: check, list, replay and review."""

from __future__ import annotations

import sys

from .words import tr_for as _tr


def check(args) -> int:
    from ..storage.journal import read_table
    from ..storage.savefile import SaveError, metadata, resolve, saves_dir
    from ..words import describe_meta

    tr = _tr(args)
    folder = saves_dir(getattr(args, "saves_dir", None))
    bad = 0
    for path in args.paths:
        try:
            # a save's name, as `load` takes it; a table's save with its journal
            game = read_table(resolve(path, folder))
        except SaveError as exc:
            bad += 1
            print(tr("cli.check.bad", error=exc.text(tr.lang)))
            continue
        what = describe_meta(tr, metadata(game))
        print(tr("cli.check.ok", path=path, what=what, actions=len(game.actions)))
    return 2 if bad else 0


def list(args) -> int:  # noqa: A001 - the command's name
    from ..storage.savefile import SaveError, list_saves, read_document, saves_dir
    from ..words import describe_meta, saved_at

    tr = _tr(args)
    folder = saves_dir(args.saves_dir)
    rows = list_saves(folder)
    if not rows:
        print(tr("load.none", folder=folder))
        return 0
    print(tr("cli.list.folder", folder=folder))
    # The name and the time, the game under them: a line fits 80 columns (a play-test's
    # one-line rows ran to 92)
    name = tr("cli.list.name")
    wide = max(len(name), *(len(path.stem) for path, _, _ in rows))
    print(tr("cli.list.head", name=f"{name:<{wide}}", updated=tr("cli.list.updated")))
    for path, meta, problem in rows:
        if meta is None:
            print(f"{path.stem:<{wide}} {tr('load.broken', problem=problem.problem_in(tr.lang))}")
        else:
            when = saved_at(str(meta.get("updated", "")))
            print(f"{path.stem:<{wide}} {when}\n  {describe_meta(tr, meta)}")
        backup = path.with_name(path.name + ".bak")
        if backup.is_file():
            try:
                what = describe_meta(tr, read_document(backup)["meta"])
            except (SaveError, AttributeError):
                what = tr("load.broken", problem="?")
            print(tr("cli.list.backup", path=backup.name, what=what))
    return 0


def _read_game(args, tr):
    """(folder, the game named by `args.save`: a save, with its journal if a table's);
    the game is None, the problem said on stderr, when it cannot be read."""
    from ..storage.journal import read_table
    from ..storage.savefile import SaveError, resolve, saves_dir

    folder = saves_dir(getattr(args, "saves_dir", None))
    try:
        return folder, read_table(resolve(args.save, folder))
    except SaveError as exc:
        print(f"weathering: {exc.text(tr.lang)}", file=sys.stderr)
        return folder, None


def _seats_shown(game) -> list[int]:
    """The seats a replay or a review of `game` may show (play/replay.py: every seat once
    it is over; before, the one human's)."""
    from ..play.replay import seats_shown

    return seats_shown(game.setup, game.state.over)


def _shown_words(tr, shown: list[int]) -> str:
    return tr("cli.hidden.one", seat=shown[0]) if shown else tr("cli.hidden.none")


def replay(args) -> int:
    """`replay SAVE`: the replay screen; with --json, one seat's view after N actions."""
    tr = _tr(args)
    folder, game = _read_game(args, tr)
    if game is None:
        return 2
    seats = len(game.setup.seats)
    if args.seat is not None and not 0 <= args.seat < seats:
        print(tr("cli.replay.seat", n=seats - 1), file=sys.stderr)
        return 2
    shown = _seats_shown(game)
    if args.seat is not None and args.seat not in shown:
        print(tr("cli.replay.hidden", seats=_shown_words(tr, shown)), file=sys.stderr)
        return 2
    at = len(game.actions) if args.at is None else args.at
    if not 0 <= at <= len(game.actions):
        print(tr("cli.replay.at", n=len(game.actions)), file=sys.stderr)
        return 2
    if args.json:
        from ..engine.wire import view_to_json
        from ..play.replay import Timeline, first_seat

        seat = first_seat(game.setup, shown) if args.seat is None else args.seat
        print(view_to_json(Timeline(game).view_at(at, seat)))
        return 0
    from ..tui.app import WeatheringApp

    app = WeatheringApp(lang=tr.lang, saves_dir=folder, replay=(game, at, args.seat))
    app.run()
    return app.return_code or 0


def review(args) -> int:
    """`review SAVE`: each seat's costliest decisions, judged from its own view then, and
    the Écolos' win chance along the game."""
    import json

    from ..bots.review import plot, to_json
    from ..sim.progress import Progress
    from ..words.review import review_item

    tr = _tr(args)
    _, game = _read_game(args, tr)
    if game is None:
        return 2
    seats = len(game.setup.seats)
    if args.seat is not None and not 0 <= args.seat < seats:
        print(tr("cli.review.seat", n=seats - 1), file=sys.stderr)
        return 2
    shown = _seats_shown(game)
    if (args.seat is not None and args.seat not in shown) or not shown:
        print(tr("cli.review.hidden", seats=_shown_words(tr, shown)), file=sys.stderr)
        return 2
    from ..bots.review import decisions, review_decisions

    wanted = shown if args.seat is None else [args.seat]
    found = decisions(game.setup, game.actions, wanted)
    bar = Progress(len(found), tr)
    bar.shown = bar.shown and not args.json
    result = review_decisions(found, budget=args.budget, progress=bar)
    bar.close()
    if args.json:
        print(json.dumps(to_json(result)))
        return 0
    print(tr("cli.review.head", save=args.save, actions=len(game.actions), budget=args.budget))
    print(tr("cli.review.curve"))
    for line in plot(result.curve, len(game.actions)):
        print("  " + line)
    for seat in wanted:
        player = game.state.players[seat]
        name = player.name or tr("cli.review.seat_name", seat=seat)
        side = tr(f"side.{player.side}")
        print()
        print(tr("cli.review.seat_head", name=name, side=side, n=result.reviewed.get(seat, 0)))
        items = result.seats.get(seat, ())
        if not items:
            print("  " + tr("cli.review.clean"))
        for k, c in enumerate(items, 1):
            print(f"  {k}. " + review_item(tr, c))
    return 0
