"""A table's creator names it (issue #29 item 8): the lobby's create dialog offers a
free name, checks a typed one as the server does, and the server refuses, never cleans,
a name that is not 1 to 24 letters, digits, single spaces or punctuation."""

import asyncio
import json

import pytest
from helpers import running_server
from textual.widgets import Input

from weathering_tui.net import protocol as pr
from weathering_tui.tui.join import JoinApp
from weathering_tui.tui.screens.lobby import LobbyScreen
from weathering_tui.tui.screens.text_prompt import TextModal
from weathering_tui.tui.screens.waiting import WaitingScreen

from .test_join import screen_text, until

BAD = {
    "": "empty",
    "   ": "empty",
    "x" * 25: "long",
    "東京" * 7: "long",  # 14 letters, 28 cells
    " den": "spaces",
    "den  hall": "spaces",
    "den\x1b[2J": "char",
    "den\u202eevil": "char",
    "😀 den": "char",
    "␛den": "char",
    "\u3164": "char",
    "e\u0301": "char",  # not in normal form
    "---": "word",
}
GOOD = ["den", "Café des Écolos", "ann-1v1", "[b]x[/b]", "東京の卓", "x" * 24]


@pytest.mark.parametrize("name", list(BAD), ids=[repr(n) for n in BAD])
def test_a_bad_name_is_refused_with_its_reason(name):
    assert pr.table_name_problem(name) == BAD[name]


@pytest.mark.parametrize("name", GOOD)
def test_a_good_name_is_taken_as_typed(name):
    assert pr.table_name_problem(name) is None


async def test_the_server_refuses_a_bad_name_and_makes_no_table(tmp_path):
    path = tmp_path / "s.sock"
    async with running_server(tmp_path) as server:
        reader, writer = await asyncio.open_unix_connection(str(path))
        writer.write(pr.client_line(pr.Hello(pr.PROTOCOL, "raw", identity="mallory")))
        await reader.readline()  # welcome
        for name, reason in (("den\x1b[2J", "char"), ("😀 den", "char"), (" den", "spaces")):
            writer.write(pr.client_line(pr.CreateTable(name, "1v1", (0, 1))))
            while True:
                message = json.loads(await asyncio.wait_for(reader.readline(), 5))
                if message["type"] == "error":
                    break
            assert message["code"] == "bad_name" and message["params"] == {"reason": reason}
        assert not server.tables
        writer.write(pr.client_line(pr.CreateTable("Café des Écolos", "1v1", (0, 1))))
        for _ in range(100):
            if server.tables:
                break
            await asyncio.sleep(0.05)
        assert [t.name for t in server.tables.values()] == ["Café des Écolos"]
        writer.close()


async def test_the_creator_names_the_table_and_a_bad_name_is_said_at_once(tmp_path):
    path = tmp_path / "s.sock"
    async with running_server(tmp_path) as server:
        app = JoinApp(lang="en", socket_path=path, identity="ann", name="Ann")
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: isinstance(app.screen, LobbyScreen) and app.client.name)
            # 1v1, one human, an Écolo, no hints: then the name, offered
            await pilot.press("n", "1", "1", "1", "1")
            await until(pilot, lambda: isinstance(app.screen, TextModal))
            shown = screen_text(app)
            assert "Name of the table (24 characters at most)" in shown and "Ann-1v1" in shown
            await pilot.press("ctrl+u", *"den")  # (ctrl+u empties the line)
            app.screen.query_one(Input).insert_text_at_cursor(" 😀")  # pasted
            await pilot.press("enter")
            await pilot.pause()
            assert isinstance(app.screen, TextModal), "refused here, not sent"
            assert "Letters, digits, spaces and punctuation only" in screen_text(app)
            assert not server.tables
            await pilot.press("backspace", *"hall", "enter")
            await until(pilot, lambda: "Join code" in screen_text(app))
            await pilot.press("enter")  # no join code
            await until(pilot, lambda: isinstance(app.screen, WaitingScreen))
            await until(pilot, lambda: bool(server.tables))
            assert [t.name for t in server.tables.values()] == ["den hall"]
            assert "den hall" in screen_text(app)  # the waiting room's title
