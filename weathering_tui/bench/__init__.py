"""Benchmarks that print figures (never asserted in tests: machines here are noisy).

python -m weathering_tui.bench            # the simulator, save/load, start-up, keys
python -m weathering_tui.bench engine     # simulator speed, save and load
python -m weathering_tui.bench tui        # start-up and key repaint
python -m weathering_tui.bench history    # clone, the expert with clones, replay, undo, hints
python -m weathering_tui.bench rollouts   # rollouts/s: the View path against the lean path
python -m weathering_tui.bench hints 60   # hints before and now against a 16× deeper search
python -m weathering_tui.bench hint-budgets 40  # a hint's budget and horizon: time against trust
python -m weathering_tui.bench hint-wait  # from h to the hints' dialog, thought ahead or not
python -m weathering_tui.bench engine-vs /path/to/other/checkout [--games 200] [--runs 5]
                                          # simulate's games/s: this tree against another
python -m weathering_tui.bench native [build|clean|status]  # the compiled engine (mypyc)
python -m weathering_tui.bench net [TABLES SEATS PROCESSES]  # the table server under load
python -m weathering_tui.bench net cluster [TABLES]          # servers on one Redis
python -m weathering_tui.bench net floor [GAMES]             # the least an action costs
python -m weathering_tui.bench net windows [GAMES SECONDS]   # what reaction windows cost
python -m weathering_tui.bench net ssh [PLAYERS]             # players through the SSH door
python -m weathering_tui.bench net hints [KEYS_PER_SECOND ROUNDS]  # one player spamming h

In this process: `game.py` (the command line too), `history.py`, `hints.py`, `hint_wait.py`,
`native.py`; other processes: `vs.py` (another checkout), `server.py` (the table server:
tables, ssh, and the command line of `net`), `cluster.py`, `floor.py`, `windows.py`,
`hint_spam.py`; their tools: `load.py` (lean players speaking the protocol), `term.py`
(an SSH terminal).
Nothing of the project imports this package.
"""
