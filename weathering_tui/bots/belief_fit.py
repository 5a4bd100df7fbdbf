"""`python -m weathering_tui.bots.belief_fit [SCALE]`: fit bots/belief.py's weights.

The expert plays `pimc` on 16 deals of 1v1, 16 of 2v1 and 12 of 3v2 (times SCALE) from
seed 5001 (never a quoted duel's: those start at 9001), each deal both ways, its
beliefs read as the raw rollout share; what happened is fitted on them by a logistic
model (bots/belief.py), written to bots/belief_weights.py. It prints the Brier score
before and after, and the tenths after. Same deals ⇒ same weights (a duel's decisions
do not depend on the clock). About 10 minutes on 2 cores.
"""

from __future__ import annotations

import sys
from pathlib import Path

CONFIGURATIONS = {"1v1": 16, "2v1": 16, "3v2": 12}  # deals of each (3v2 plays longer)
FIRST_DEAL = 5001
RIDGE = 4.0


def main(argv: list[str]) -> int:
    from ..sim import stats
    from ..sim.duel import run_duel
    from . import belief

    scale = float(argv[0]) if argv else 1.0
    belief.RAW = True  # the raw shares (the duels' workers are forked from here)
    rows: list[tuple[float, str, int]] = []
    for configuration, deals in CONFIGURATIONS.items():
        duel = run_duel("expert", "pimc", configuration, round(deals * scale), FIRST_DEAL, 2)
        for record in duel.records:
            group = f"{configuration} {record.a_side}"
            rows += [(share, group, won) for share, won in record.beliefs_a]
        print(f"{configuration}: {len(duel.records)} games", flush=True)
    belief.RAW = False
    belief.SLOPE, belief.SHIFTS = belief.fit(rows, RIDGE)
    raw = [(share, won) for share, _, won in rows]
    after = [(belief.calibrated(s, *g.split()), y) for s, g, y in rows]
    print(
        f"{len(rows)} beliefs: Brier {stats.brier(raw):.4f} raw, "
        f"{stats.brier(after):.4f} calibrated (base rate's {stats.brier_base(raw):.4f})"
    )
    for row in stats.deciles(after):
        tenth, samples = row["decile"] * 10, row["samples"]
        print(f"  {tenth:3d}%: {samples:5d}, believed {row['predicted']}, won {row['observed']}")
    shifts = "".join(f'    "{g}": {w!r},\n' for g, w in belief.SHIFTS.items())
    text = (
        '"""Written by `python -m weathering_tui.bots.belief_fit'
        + (f" {argv[0]}" if argv else "")
        + '`: bots/belief.py\'s weights."""\n\n'
        + f"SLOPE = {belief.SLOPE!r}\n"
        + "SHIFTS: dict[str, float] = {\n"
        + shifts
        + "}\n"
    )
    target = Path(__file__).with_name("belief_weights.py")
    target.write_text(text, encoding="utf-8")
    print(f"wrote {target}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
