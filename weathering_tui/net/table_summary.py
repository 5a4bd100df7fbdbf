"""What the lobby shows of a table, all public: its seats and who holds them, where its
game stands (from the spectator's view), how many watch. Sent in `tables` lines, and
kept in the store for the other servers' lobbies (`cluster.py`)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..engine import SPECTATOR, view_for

if TYPE_CHECKING:
    from .table import Table


def table_summary(table: Table, spectators: int = 0) -> dict:
    """The table as the lobby lists it."""
    where: dict[str, Any] = {"stage": "waiting"}
    if table.game is not None:
        public = view_for(table.game.state, SPECTATOR, with_log=False)
        where = {
            "stage": public.stage,
            "phase": public.phase,
            "round": public.round_in_phase,
            "rounds": public.rounds_per_phase,
            "hp": public.hp,
        }
        if public.outcome is not None:
            where["outcome"] = public.outcome.band
    return {
        "name": table.name,
        "configuration": table.configuration,
        "code": bool(table.code),
        "seats": [
            {
                "side": s.side,
                "open": s.open,
                "player": s.name if s.owner else "",
                "bot": s.botted,
                "away": s.away,
            }
            for s in table.seats
        ],
        "spectators": spectators,
        "hints": table.hints,
        "start_when_full": table.start_when_full,
        **where,
    }
