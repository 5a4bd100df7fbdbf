"""Hints computed in a child process (bots/hint_child.py): the same hints as in the
calling thread, from the seat's view alone, and a child killed when asked to stop."""

import os
import time

import pytest
from helpers import record_children

from weathering_tui.bots import hint_child
from weathering_tui.bots.hints import Stopped, hints
from weathering_tui.engine import Setup, view_for
from weathering_tui.sim.simulate import play_game


def a_turn_view(seed=4):
    state, _ = play_game(Setup.standard("2v1", seed=seed), "heuristic", stop_after=40)
    while state.pending.kind != "turn":
        seed += 1
        state, _ = play_game(Setup.standard("2v1", seed=seed), "heuristic", stop_after=40)
    return view_for(state, state.pending.seat, with_log=False)


def test_a_hint_from_the_child_is_the_hint_of_the_thread():
    view = a_turn_view()
    assert hint_child.hints_apart(view) == hints(view)


def test_the_child_is_in_a_session_of_its_own_at_the_lowest_share(monkeypatch):
    children = record_children(monkeypatch, hint_child)
    seen = {}

    def stop():
        if children and "group" not in seen and children[0].poll() is None:
            pid = children[0].pid
            seen["session"] = os.getsid(pid)
            time.sleep(0.5)  # (the child sets its share as it starts)
            try:
                with open(f"/proc/{pid}/autogroup") as group:
                    seen["group"] = group.read()
            except OSError:
                seen["group"] = ""
        return False

    hint_child.hints_apart(a_turn_view(), should_stop=stop)
    assert seen["session"] == children[0].pid != os.getsid(0)
    if seen["group"]:  # Linux with autogroup
        assert seen["group"].strip().endswith("nice 10"), seen["group"]


def test_a_hint_asked_to_stop_kills_its_child(monkeypatch):
    children = record_children(monkeypatch, hint_child)
    view = a_turn_view()

    def stop() -> bool:
        # Asked to stop while the child works (a stop after 0.3 s came after the answer
        # once the engine got faster: the child's whole hint takes about that now).
        return bool(children) and children[0].poll() is None

    with pytest.raises(Stopped):
        hint_child.hints_apart(view, should_stop=stop)
    assert children[0].returncode == -9


def test_a_child_that_cannot_answer_leaves_the_hint_to_the_thread(monkeypatch):
    monkeypatch.setattr(hint_child.sys, "executable", "/bin/false")
    view = a_turn_view()
    assert hint_child.hints_apart(view) == hints(view)


def test_the_child_says_how_far_it_is():
    """A few times a second the child says the share of its work done: told on, in
    order, and the hints are the thread's all the same."""
    view = a_turn_view()
    shares = []
    assert hint_child.hints_apart(view, progress=shares.append) == hints(view)
    assert shares, "no share said in a whole hint"
    assert shares == sorted(shares) and all(0 < s <= 1 for s in shares)


def test_a_share_cut_across_reads_is_read_whole_and_nonsense_is_left_out():
    """The child's lines may come in pieces: each share is read once whole; a line that
    is not one (or out of 0–1) is no share; the answer is what remains."""
    import subprocess
    import sys

    script = (
        "import sys, time\n"
        "for piece in ['P 0.2', '5\\nP nonsense\\nP 7\\n', 'P 0.5\\n{\"an', 'swer\": 1}\\n']:\n"
        "    sys.stdout.write(piece); sys.stdout.flush(); time.sleep(0.1)\n"
    )
    child = subprocess.Popen(
        [sys.executable, "-c", script], stdin=subprocess.PIPE, stdout=subprocess.PIPE
    )
    shares = []
    try:
        out = hint_child._talk(child, b"", None, shares.append)
    finally:
        hint_child._end(child)
    assert shares == [0.25, 0.5]
    assert out.strip() == b'{"answer": 1}'
