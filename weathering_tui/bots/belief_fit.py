"""`python -m weathering_tui.bots.belief_fit [TIMES]`: fit bots/belief.py's slope.

The expert plays `pimc` on 16 deals of 1v1, 16 of 2v1 and 12 of 3v2 (times TIMES) from
seed 5001 (never a quoted duel's: those start at 9001), each deal both ways, its
beliefs read as the raw rollout share; the slope on the log-odds that best predicts
what happened from them (bots/belief.py) is written to bots/belief_weights.py. It
prints the Brier score before and after, and the tenths after. Same deals ⇒ same
slope (a duel's decisions do not depend on the clock). About 10 minutes on 2 cores.
"""

from __future__ import annotations

import sys
from pathlib import Path

CONFIGURATIONS = {"1v1": 16, "2v1": 16, "3v2": 12}  # deals of each (3v2 plays longer)
FIRST_DEAL = 5001


def main(argv: list[str]) -> int:
    from ..argline import Parser, count
    from ..sim import stats
    from ..sim.duel import run_duel
    from . import belief

    parser = Parser(
        prog="python -m weathering_tui.bots.belief_fit",
        description="Fit the slope that makes the expert's belief a chance (bots/belief.py) "
        "on its duels against pimc, and write it.",
    )
    parser.add_argument("times", nargs="?", type=count, default=1, help="times 16/16/12 deals (1)")
    times = parser.parse_args(argv).times
    belief.RAW = True  # the raw shares (the duels' workers are forked from here)
    pairs: list[tuple[float, int]] = []
    for configuration, deals in CONFIGURATIONS.items():
        duel = run_duel("expert", "pimc", configuration, deals * times, FIRST_DEAL, 2)
        pairs += [p for record in duel.records for p in record.beliefs_a]
        print(f"{configuration}: {len(duel.records)} games", flush=True)
    belief.RAW = False
    belief.SLOPE = belief.fit(pairs)
    after = [(belief.calibrated(share), won) for share, won in pairs]
    print(
        f"{len(pairs)} beliefs: Brier {stats.brier(pairs):.4f} raw, "
        f"{stats.brier(after):.4f} calibrated (base rate's {stats.brier_base(pairs):.4f})"
    )
    for row in stats.deciles(after):
        tenth, samples = row["decile"] * 10, row["samples"]
        print(f"  {tenth:3d}%: {samples:5d}, believed {row['predicted']}, won {row['observed']}")
    text = (
        '"""Written by `python -m weathering_tui.bots.belief_fit'
        + (f" {times}" if times != 1 else "")
        + '`: bots/belief.py\'s slope."""\n\n'
        + f"SLOPE = {belief.SLOPE!r}\n"
    )
    target = Path(__file__).with_name("belief_weights.py")
    target.write_text(text, encoding="utf-8")
    print(f"wrote {target}: slope {belief.SLOPE}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
