"""Sessions a screen plays through: what to show, what to wait for, where actions go.

A session gives the View of the seat at this terminal, takes that seat's actions and
says what comes next (`Step`); what else it can do, its `can` says. The contract is
play/session.py; the sessions are a saved game at one terminal (`LocalSession`), the
guided first game (`LearnSession`), a seat at a table server (`RemoteSession`) and a
replay (`ReplaySession`). The screens speak to the contract, never to a kind of session.
"""

from __future__ import annotations

from .local import LocalSession
from .session import Capabilities, Session, Step

__all__ = ["Capabilities", "LocalSession", "Session", "Step"]
