"""When a bot — or a player's own "pass by myself" — answers: the timing rule, stated
once, for the local session, the table server and headless clients.

What a seat sees must not depend on another seat's hidden cards, and that includes
when things happen:

- a bot answers a reaction window at once, before anything else is read or shown:
  how long a window lasts must not tell whether a bot held a cancel;
- a window that asks a player stays open for everyone it asks at once, for the same
  time whatever anyone holds (`REACTION_SECONDS` at a table server, where it closes
  early once every player it asks has answered; `SHARED_REACTION_SECONDS` for the
  public "someone to react?" prompt at a shared terminal), and nobody who lets the
  action happen has to press a key;
- any other decision waits the table's pace; a bot that thinks (the expert) is then
  given its whole thinking budget every time, so that a quick answer does not show
  that its hand left it little choice.
"""

from __future__ import annotations

REACTION_SECONDS = 4.0
# Short: it opens only when a player at the terminal could cancel (as everyone can see),
# and those who let the action happen press nothing; a player who speaks up stops it.
SHARED_REACTION_SECONDS = 1.5


def at_once(pending_kind: str) -> bool:
    """Is this decision answered at once (a reaction window) rather than at the pace?"""
    return pending_kind == "react"


# The bots that search, by name: they think for a while (`seconds`), off the event loop;
# the others answer at once. (A save may name any bot of bots.BOTS.)
SEARCHING = ("expert", "pimc", "ismcts")


def wait_before(pending_kind: str, pace: float) -> float:
    """Seconds a bot waits before it decides."""
    return 0.0 if at_once(pending_kind) else pace


def thinking_time(bot, pending_kind: str) -> float:
    """Seconds a bot's decision takes in all, however quickly it found it."""
    if at_once(pending_kind):
        return 0.0
    searches = getattr(bot, "name", "") in SEARCHING
    return float(getattr(bot, "seconds", 0.0)) if searches else 0.0
