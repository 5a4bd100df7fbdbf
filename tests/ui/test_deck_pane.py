"""The deck pane: one row a card, its type always said (a play-test read long names
wrapped over two rows, and the type only beside the short ones)."""

from weathering_tui.tui.app import WeatheringApp
from weathering_tui.tui.widgets import DeckPane

from .games import at, human_turn, setup_for

LONG = "puits_de_carbone_oceanique"  # "Puits de carbone océanique": 26 letters


async def test_a_long_name_is_cut_to_its_row_and_keeps_its_type():
    game = at(setup_for("2v1", seed=11), human_turn(0, 1))
    state = game.state
    card = next(c for c in state.draw_pile if c.startswith(LONG + "#"))
    state.draw_pile.remove(card)
    state.players[0].deck.append(card)
    app = WeatheringApp(lang="fr", saves_dir=None, pace=0, autosave=False, game=game)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        pane = app.screen.query_one(DeckPane)
        rows = str(pane.render()).splitlines()
        assert rows[0].startswith("Puits de carbone") and rows[0].rstrip().endswith("OCE"), rows
        assert "…" in rows[0] and rows[1].startswith("synergie"), rows
        assert max(len(r) for r in rows) <= pane.size.width
