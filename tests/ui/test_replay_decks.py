"""`o` in the replay of a finished game opens the Écolos' decks with the hands (issue
#29 item 9); one seat's view shows its own deck and only the others' deck sizes."""

from weathering_tui.tui.app import WeatheringApp
from weathering_tui.tui.screens.replay import HandsPane, ReplayScreen
from weathering_tui.tui.widgets import HandPane, PlayersPane

from .test_replay_ui import finished

AT = 40  # phase 1, round 2: Cassy (seat 0) has two cards in her deck


async def test_o_shows_every_ecolo_deck_and_a_seat_sees_only_its_own():
    game = finished()
    app = WeatheringApp(lang="en", saves_dir=None, replay=(game, AT, 1), pace=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        replay = app.screen
        assert isinstance(replay, ReplayScreen)
        decks = [list(p.deck) for p in replay.session.timeline.state_at(AT).players]
        cassy = [app.tr.card(c) for c in decks[0]]
        assert cassy, "the moment chosen has a deck to show"
        # Seat 2 (Mirai) sees her own deck under her hand, and Cassy's only as a count.
        shown = str(replay.query_one(HandPane).render())
        assert not any(name in shown for name in cassy)
        assert f"▤{len(cassy)}" in str(replay.query_one(PlayersPane).render())
        await pilot.press("o")
        await pilot.pause()
        every = str(replay.query_one(HandsPane).render())
        assert f"▤ Deck ({len(cassy)}): " + ", ".join(cassy) in every
