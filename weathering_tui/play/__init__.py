"""Sessions a screen plays through: what to show, what to wait for, where actions go.

A session gives the View of the seat at this terminal, takes that seat's actions and
says what comes next (`Step`). The local session wraps the engine, the bots and the
autosave; a remote one talks to a table server. The game screen does not know which.
"""

from .local import LocalSession, Step

__all__ = ["LocalSession", "Step"]
