"""A hint computed in a process of its own (`hints_apart`), so that it yields to everyone.

A thread at nice 10 (`background_priority`) yields only to the threads of its own
scheduling group. Linux groups processes by session (autogroup): each player's `join`
at the SSH door is a session, and the groups share the processor equally whatever
their threads' nice. So one player pressing `h` again and again took a whole group's
share from the others. Here the hint runs in a child in a session of its own, whose
group is set to nice 10 (`/proc/self/autogroup`), and its thread too: it takes only
what nobody else wants. And a hint dismissed is not left to finish: the child is killed.

The child reads the seat's view (the wire's JSON: nothing the seat may not see) and
writes the hints as JSON. If the child cannot run or answers nonsense, the hint is
computed in the calling thread instead, as before (the player still gets a hint).

`python -m weathering_tui.bots.hint_child` is the child's side.
"""

from __future__ import annotations

import contextlib
import json
import os
import selectors
import signal
import subprocess
import sys
import time
from collections.abc import Callable

from ..engine import View
from .hints import Hint, Hints, Stopped, background_priority, hints

POLL = 0.05  # seconds between two looks at `should_stop` while the child thinks
SAY_EVERY = 0.1  # seconds between two shares of its work the child says


def hints_apart(
    view: View,
    should_stop: Callable[[], bool] | None = None,
    progress: Callable[[float], None] | None = None,
) -> Hints:
    """`hints(view)`, computed in a child process at the lowest share of the processor;
    killed as soon as `should_stop()` is true (then `Stopped` is raised). `progress` is
    told the share of the work done, as the child says it."""
    from ..engine.wire import view_to_json

    try:
        child = subprocess.Popen(
            [sys.executable, "-m", "weathering_tui.bots.hint_child"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            start_new_session=True,  # its own scheduling group (autogroup)
        )
    except OSError:
        return hints(view, should_stop=should_stop, progress=progress)
    try:
        out = _talk(child, view_to_json(view).encode(), should_stop, progress)
    finally:
        _end(child)
    found = _parse(out)
    return found if found is not None else hints(view, should_stop=should_stop, progress=progress)


def _talk(child: subprocess.Popen, data: bytes, should_stop, progress=None) -> bytes:
    """Give the child the view, then read its answer, looking at `should_stop` often.
    The child's output is lines: "P 0.42" for the share of its work done (told to
    `progress`), then the hints' JSON."""
    stdin, stdout = child.stdin, child.stdout
    assert stdin is not None and stdout is not None, "the child is started with pipes"
    try:
        stdin.write(data)
        stdin.close()
    except OSError:
        return b""
    answer: list[bytes] = []
    pending = b""
    with selectors.DefaultSelector() as selector:
        selector.register(stdout, selectors.EVENT_READ)
        while True:
            if should_stop is not None and should_stop():
                raise Stopped
            if not selector.select(POLL):
                continue
            chunk = os.read(stdout.fileno(), 65536)
            if not chunk:
                return b"".join([*answer, pending])
            *lines, pending = (pending + chunk).split(b"\n")
            for line in lines:
                if line.startswith(b"P "):
                    _told(progress, line[2:])
                else:
                    answer.append(line)


def _told(progress, share: bytes) -> None:
    """A share of the work done, said by the child: told on if it reads as one."""
    try:
        value = float(share)
    except ValueError:
        return
    if progress is not None and 0.0 <= value <= 1.0:
        progress(value)


def _end(child: subprocess.Popen) -> None:
    """Kill the child's whole session if it still runs, and reap it."""
    if child.poll() is None:
        with contextlib.suppress(OSError):
            os.killpg(child.pid, signal.SIGKILL)
    child.wait()
    if child.stdout is not None:
        child.stdout.close()


def _parse(out: bytes) -> Hints | None:
    from ..engine.wire import action_from_data

    try:
        data = json.loads(out)
        moves = [
            Hint(action_from_data(m["action"]), m["win"], m["low"], m["high"], m["rollouts"])
            for m in data["moves"]
        ]
        then = tuple(action_from_data(m) for m in data["then"])
        return Hints(moves, bool(data["tied"]), data["why"], int(data["why_gap"]), then)
    except (ValueError, KeyError, TypeError):
        return None


def to_json(found: Hints) -> str:
    from ..engine.wire import action_to_data

    return json.dumps(
        {
            "moves": [
                {
                    "action": action_to_data(h.action),
                    "win": h.win,
                    "low": h.low,
                    "high": h.high,
                    "rollouts": h.rollouts,
                }
                for h in found.moves
            ],
            "tied": found.tied,
            "why": found.why,
            "why_gap": found.why_gap,
            "then": [action_to_data(m) for m in found.then],
        }
    )


def lowest_share() -> None:
    """This process's scheduling group and thread yield to everything else."""
    with contextlib.suppress(OSError), open("/proc/self/autogroup", "w") as group:
        group.write("10")
    background_priority()


def main(argv: list[str]) -> int:
    from ..argline import Parser
    from ..engine.wire import view_from_json

    Parser(
        prog="python -m weathering_tui.bots.hint_child",
        description="The hint's child process: a seat's view (the wire's JSON) on its "
        "input, the expert's hints as JSON on its output, at the lowest share of the "
        "processor (a game's h starts it).",
    ).parse_args(argv)
    lowest_share()
    try:
        view = view_from_json(sys.stdin.read())
    except Exception as exc:  # (cattrs raises an exception group)  # noqa: BLE001
        print(f"hint_child: not a view on the input ({type(exc).__name__})", file=sys.stderr)
        return 2
    said = [0.0]

    def progress(share: float) -> None:  # a few times a second, not at every rollout
        now = time.monotonic()
        if now - said[0] >= SAY_EVERY:
            said[0] = now
            sys.stdout.write(f"P {share:.3f}\n")
            sys.stdout.flush()

    sys.stdout.write(to_json(hints(view, progress=progress)) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
