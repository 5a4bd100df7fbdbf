"""`python -m weathering_tui.bots.belief_fit [TIMES]`: fit bots/belief.py's slope and
shift.

The expert plays `pimc` on 24 deals of 1v1, 24 of 2v1 and 16 of 3v2 (times TIMES) from
seed 5001 (never a quoted duel's: those start at 9001), each deal both ways, its
beliefs read as the raw rollout share; the slope and shift on the log-odds that best
predict what happened from them (bots/belief.py) are written to bots/belief_weights.py.
It prints the Brier score before and after, and the tenths after. Same deals ⇒ same
fit (a duel's decisions do not depend on the clock). About 15 minutes on 2 cores.
"""

from __future__ import annotations

import sys
from pathlib import Path

CONFIGURATIONS = {"1v1": 24, "2v1": 24, "3v2": 16}  # deals of each (3v2 plays longer)
FIRST_DEAL = 5001


def main(argv: list[str]) -> int:
    from ..argline import Parser, count
    from ..sim import stats
    from ..sim.duel import run_duel
    from . import belief

    parser = Parser(
        prog="python -m weathering_tui.bots.belief_fit",
        description="Fit the slope and shift that make the expert's belief a chance "
        "(bots/belief.py) on its duels against pimc, and write them.",
    )
    parser.add_argument("times", nargs="?", type=count, default=1, help="times 24/24/16 deals (1)")
    times = parser.parse_args(argv).times
    belief.RAW = True  # the raw shares (the duels' workers are forked from here)
    pairs: list[tuple[float, int]] = []
    for configuration, deals in CONFIGURATIONS.items():
        duel = run_duel("expert", "pimc", configuration, deals * times, FIRST_DEAL, 2)
        pairs += [p for record in duel.records for p in record.beliefs_a]
        print(f"{configuration}: {len(duel.records)} games", flush=True)
    belief.RAW = False
    belief.SLOPE, belief.SHIFT = belief.fit(pairs)
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
        + '`: bots/belief.py\'s slope and shift."""\n\n'
        + f"SLOPE = {belief.SLOPE!r}\nSHIFT = {belief.SHIFT!r}\n"
    )
    target = Path(__file__).with_name("belief_weights.py")
    target.write_text(text, encoding="utf-8")
    print(f"wrote {target}: slope {belief.SLOPE}, shift {belief.SHIFT}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
