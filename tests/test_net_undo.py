"""Taking a move back at a table server: the engine's rule, enforced by the table; the
save holds only what stands before anyone sees it; everyone reads who took it back."""

import asyncio

from helpers import running_server
from test_net import answers
from test_net_windows import table_of

from weathering_tui.engine import actions as act
from weathering_tui.engine import legal_actions, view_for
from weathering_tui.net import protocol as pr
from weathering_tui.storage.journal import read_table


async def to_ann_turn(table, links) -> None:
    """Mulligans kept (ann's through her link; the bot's by itself) until ann's turn."""
    for _ in range(50):
        pending = table.game.state.pending
        if pending.kind == "turn" and pending.seat == 0:
            return
        if pending.seat == 0:
            send(links, table, act.ChooseCard(0, None))
        await asyncio.sleep(0.05)
    raise AssertionError("never ann's turn")


def send(links, table, action, name="ann") -> None:
    version = table.game.state.version
    links[name][1].write(pr.client_line(pr.Act("w", version, pr.action_data(action))))


def undo(links, table, name="ann", version=None) -> None:
    version = table.game.state.version if version is None else version
    links[name][1].write(pr.client_line(pr.Undo("w", version)))


def quiet_move(table):
    """A move that shows nothing hidden: storing PA, else a card put in the deck."""
    legal = legal_actions(table.game.state, 0)
    return next(a for a in legal if isinstance(a, act.StoreAp | act.PutInDeck))


async def moved(table, links, action=None) -> None:
    """ann makes a move (a quiet one by default) and the table settles back on her."""
    send(links, table, action or quiet_move(table))
    await answers(links["ann"][0], "view")
    while table.game.state.pending.seat != 0:  # the bot's reaction, if it is asked
        await asyncio.sleep(0.05)
    await answers(links["ann"][0], timeout=0.3)


async def test_a_player_takes_a_move_back_and_everyone_reads_it(tmp_path):
    async with running_server(tmp_path) as server:
        table, links = await table_of(server, {0: "ann"}, config="1v1")
        await to_ann_turn(table, links)
        await answers(links["ann"][0], timeout=0.3)
        await answers(links["eve"][0], timeout=0.3)
        before = list(table.game.actions)
        seen_before = view_for(table.game.state, 0)
        await moved(table, links)
        await answers(links["eve"][0], timeout=0.3)
        assert len(table.game.actions) > len(before)
        undo(links, table)
        got = await answers(links["ann"][0], "notice")
        watched = await answers(links["eve"][0], "notice")
        assert table.game.actions == before
        assert view_for(table.game.state, 0) == seen_before
        for messages in (got, watched):
            notices = [m for m in messages if m["type"] == "notice"]
            assert [(n["kind"], n["name"]) for n in notices] == [("undo", "ann")]
            # The notice comes after the shorter log, so that a client puts it after
            # what stands (before, it stood after the moves made since, in the pane).
            assert messages[-1]["type"] == "notice"
            assert messages[-1]["at"] == len(table.game.state.log)
            view = [m for m in messages if m["type"] == "view"][-1]
            assert view["full"] and view["log_start"] == 0, "a shorter log: the view again whole"
            assert view["version"] == table.game.state.version
        # Durable before visible: the save on disk holds what stands, nothing more.
        kept = read_table(table.saves.path)
        assert kept.actions == before


async def test_no_move_back_across_a_draw_nor_on_an_old_view_nor_for_another(tmp_path):
    async with running_server(tmp_path) as server:
        table, links = await table_of(server, {0: "ann"}, config="1v1")
        await to_ann_turn(table, links)
        await answers(links["ann"][0], timeout=0.3)
        await moved(table, links)
        version = table.game.state.version
        undo(links, table, version=version - 1)  # on an older view
        (error,) = [m for m in await answers(links["ann"][0], "error") if m["type"] == "error"]
        assert error["code"] == "stale"
        undo(links, table, name="eve")  # a spectator holds no seat
        (error,) = [m for m in await answers(links["eve"][0], "error") if m["type"] == "error"]
        assert error["code"] == "not_seated"
        assert table.game.state.version == version
        draw = next(a for a in legal_actions(table.game.state, 0) if isinstance(a, act.Draw))
        await moved(table, links, draw)
        actions = list(table.game.actions)
        undo(links, table)
        (error,) = [m for m in await answers(links["ann"][0], "error") if m["type"] == "error"]
        assert (error["code"], error["message"]) == ("illegal", "cannot_undo")
        assert table.game.actions == actions, "the drawn card stays drawn"


async def test_a_move_taken_back_at_a_table_kept_in_redis_is_in_the_store_first(
    tmp_path, redis_url
):
    from weathering_tui.storage.redis_store import RedisStore

    store = RedisStore(redis_url)
    async with running_server(tmp_path, store=store) as server:
        table, links = await table_of(server, {0: "ann"}, config="1v1")
        await to_ann_turn(table, links)
        await answers(links["ann"][0], timeout=0.3)
        before = list(table.game.actions)
        await moved(table, links)
        undo(links, table)
        got = await answers(links["ann"][0], "notice")
        assert ("notice", "undo") in [(m["type"], m.get("kind")) for m in got]
        assert table.game.actions == before
        raw = store.read_save(table.saves.key)
        kept = read_table(table.saves.path, raw=raw, journal=store.journal(table.saves.key))
        assert kept.actions == before, "the store holds what stands, nothing taken back"


async def test_an_undo_the_disk_refuses_is_refused_and_the_table_plays_on(tmp_path, monkeypatch):
    """A full disk as the save is rewritten: nothing was shown, so the move stands, the
    player is told, and the next move is saved and shown as usual."""
    import errno

    from weathering_tui.net import table_saves as table_module

    async with running_server(tmp_path) as server:
        table, links = await table_of(server, {0: "ann"}, config="1v1")
        await to_ann_turn(table, links)
        await answers(links["ann"][0], timeout=0.3)
        await moved(table, links)
        actions = list(table.game.actions)
        real = table_module.atomic_write

        def full_disk(*args, **kwargs):
            raise OSError(errno.ENOSPC, "No space left on device")

        monkeypatch.setattr(table_module, "atomic_write", full_disk)
        undo(links, table)
        (error,) = [m for m in await answers(links["ann"][0], "error") if m["type"] == "error"]
        assert error["code"] == "storage"
        assert table.game.actions == actions and not table.saves.rewound
        monkeypatch.setattr(table_module, "atomic_write", real)
        send(links, table, quiet_move(table))
        got = await answers(links["ann"][0], "view")
        assert got[-1]["type"] == "view", "the table still shows its moves"
        await asyncio.sleep(0.2)
        assert read_table(table.saves.path).actions == table.game.actions


async def test_a_move_made_while_the_undo_is_saved_in_redis_freezes_nothing(tmp_path, redis_url):
    """The store is slow to take the rewritten save; the player moves again meanwhile
    (on the version the undo gave back): the rewind is durable once the save holds what
    stood after it, and the new move goes through the journal and is shown."""
    from weathering_tui.storage.redis_store import RedisStore

    store = RedisStore(redis_url)
    async with running_server(tmp_path, store=store) as server:
        table, links = await table_of(server, {0: "ann"}, config="1v1")
        await to_ann_turn(table, links)
        await answers(links["ann"][0], timeout=0.3)
        await moved(table, links)
        version = table.game.state.version
        slow = RedisStore(redis_url)
        slow.redis.execute_command("CLIENT", "PAUSE", "400", "WRITE")
        undo(links, table, version=version)
        await asyncio.sleep(0.1)
        assert table.saves.rewound and table.game.state.version < version  # saving, not shown
        send(links, table, quiet_move(table))
        got = await answers(links["ann"][0], timeout=2.0)
        kinds = [(m["type"], m.get("kind")) for m in got]
        assert ("notice", "undo") in kinds and ("view", None) in kinds
        (notice,) = [m for m in got if m["type"] == "notice"]
        log = [m for m in got if m["type"] == "view"][-1]["view"]["log"]
        assert notice["at"] < len(log), "said where it stands: before the move made since"
        assert not table.saves.rewound
        raw = store.read_save(table.saves.key)
        kept = read_table(table.saves.path, raw=raw, journal=store.journal(table.saves.key))
        assert kept.actions == table.game.actions


async def test_a_table_whose_journal_fails_takes_no_move_until_it_resumes(tmp_path, monkeypatch):
    """The disk refuses the journal: the move made stays unseen, the table says it is
    paused, and a move sent meanwhile is refused as "paused" (not "not offered"), nothing
    changed; once the disk answers, the first move is shown and the table plays on."""
    import errno

    from weathering_tui.storage.journal import FileJournal

    async with running_server(tmp_path) as server:
        table, links = await table_of(server, {0: "ann"}, config="1v1")
        await to_ann_turn(table, links)
        await answers(links["ann"][0], timeout=0.3)
        real = FileJournal.append

        def full_disk(*args, **kwargs):
            raise OSError(errno.ENOSPC, "No space left on device")

        monkeypatch.setattr(FileJournal, "append", full_disk)
        first = quiet_move(table)
        send(links, table, first)
        got = await answers(links["ann"][0], "notice")
        assert [m["kind"] for m in got if m["type"] == "notice"] == ["paused"]
        assert not [m for m in got if m["type"] == "view"], "nothing unwritten is shown"
        assert table.saves.paused
        actions = list(table.game.actions)
        send(links, table, quiet_move(table))
        (error,) = [m for m in await answers(links["ann"][0], "error") if m["type"] == "error"]
        assert error["code"] == "paused"
        assert table.game.actions == actions
        monkeypatch.setattr(FileJournal, "append", real)
        got = await answers(links["ann"][0], "view", timeout=3)
        assert ("notice", "resumed") in [(m["type"], m.get("kind")) for m in got]
        assert not table.saves.paused
        assert read_table(table.saves.path).actions == table.game.actions == actions


async def test_moves_taken_back_in_a_loop_are_refused_past_a_few(tmp_path):
    """An act and undo loop sent every player at the table 20 notices and whole views a
    second (a hostile review): a few moves in a row may be taken back, then no more for
    a moment."""
    from weathering_tui.net.lobby_limits import UNDOS

    async with running_server(tmp_path) as server:
        table, links = await table_of(server, {0: "ann"}, config="1v1")
        await to_ann_turn(table, links)
        await answers(links["ann"][0], timeout=0.3)
        refused = []
        for _ in range(UNDOS + 2):
            await moved(table, links)
            undo(links, table)
            got = await answers(links["ann"][0], "notice", timeout=0.5)
            refused += [m["code"] for m in got if m["type"] == "error"]
        assert refused and set(refused) == {"rate_limited"}, refused
