"""The throughput bench's load generator plays whole games, and counts what it did."""

import asyncio

from weathering_tui.bench.load import lean_seat
from weathering_tui.engine import actions as act
from weathering_tui.net import protocol as pr
from weathering_tui.net.server import Server
from weathering_tui.storage.journal import read_table


async def test_lean_players_finish_a_game_and_count_the_actions_the_server_applied(tmp_path):
    path = tmp_path / "s.sock"
    server = Server(tmp_path / "saves", path, pace=0, grace=30)
    await server.start()
    try:
        reader, writer = await asyncio.open_unix_connection(str(path))
        writer.write(pr.client_line(pr.Hello(pr.PROTOCOL, "test", identity="host")))
        table = pr.CreateTable("lean", "1v1", (0, 1), seed=3, start_when_full=True)
        writer.write(pr.client_line(table))
        while b'"created"' not in await asyncio.wait_for(reader.readline(), 5):
            pass
        applied = await asyncio.wait_for(
            asyncio.gather(*(lean_seat(path, "lean", s, f"lean-{s}", s) for s in (0, 1))), 60
        )
        writer.close()
    finally:
        await server.stop()
    (save,) = (tmp_path / "saves" / "tables").glob("*.toml")
    game = read_table(save)
    assert game.state.over
    # Every move but a window's pass was sent by the players; the server itself lets the
    # action happen for a seat that publicly cannot cancel (driver._auto_passes).
    sent_by_players = [a for a in game.actions if not isinstance(a, act.Pass)]
    assert len(sent_by_players) <= sum(applied) <= len(game.actions)
    assert len(game.actions) > 20


def test_the_floor_bench_measures_each_part_and_sends_every_line(capsys):
    """`bench floor`: the view lines it sends are the server's own (from random games),
    read by another process as they go, and each part is a positive figure."""
    from weathering_tui.bench import floor as bench_floor

    engine, push, lines = bench_floor.engine_and_push(1)
    assert engine > 0 and push > 0
    assert lines and all(b'"type":"view"' in line for line in lines)
    assert bench_floor.sends(lines * 3) > 0  # more than a socket holds: another process reads
    assert bench_floor.bench_floor(1) == 0
    printed = capsys.readouterr().out
    assert printed.count(" ms") == 6 and "floor, before any view is built" in printed
