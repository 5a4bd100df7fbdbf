""" "Since your last turn": at the start of each of a player's turns, before any dialog
of that turn, what the other seats did, naming them; any key goes on."""

from textual import events

from weathering_tui.play.recap import Recaps
from weathering_tui.tui.app import WeatheringApp
from weathering_tui.tui.screens.choice import ChoiceModal
from weathering_tui.tui.screens.game import GameScreen
from weathering_tui.tui.screens.recap import RecapScreen

from .games import at, human_turn, setup_for, wait_for


async def _to_the_recap(pilot, app) -> RecapScreen:
    """End the turn, answer what the bots' turns ask, and return the next turn's recap."""
    screen = app.screen
    assert isinstance(screen, GameScreen)
    await pilot.press("e")  # end the turn: the two bots play theirs
    for _ in range(40):  # answer what the bots' turns ask of this player, if anything
        await wait_for(pilot, lambda: app.screen.is_modal or screen._my_turn())
        if isinstance(app.screen, RecapScreen) or screen._my_turn():
            break
        await pilot.press("1")
    assert isinstance(app.screen, RecapScreen), "the turn opens with the recap"
    return app.screen


async def test_after_the_bots_play_the_next_turn_opens_with_what_they_did():
    game = at(setup_for("2v1", seed=11), human_turn(0, 1))
    app = WeatheringApp(lang="en", saves_dir=None, game=game, pace=0, autosave=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = app.screen
        recap = await _to_the_recap(pilot, app)
        names = {p.name for p in app.session.view().players[1:]}
        text = "\n".join(recap.lines)
        assert any(name in text for name in names), text
        assert "gauge" in recap.lines[0]
        await pilot.press("x")  # any key
        await wait_for(pilot, lambda: not isinstance(app.screen, RecapScreen))
        assert screen._my_turn() or isinstance(app.screen, ChoiceModal)


async def test_q_on_the_recap_quits_as_the_footer_under_it_says():
    """The game's footer under the box says "? help  q quit": q closed the box as any
    key did, and a play-test had to press it twice."""
    game = at(setup_for("2v1", seed=11), human_turn(0, 1))
    app = WeatheringApp(lang="en", saves_dir=None, game=game, pace=0, autosave=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await _to_the_recap(pilot, app)
        await pilot.press("q")
        await pilot.pause()
        assert app.return_code == 0  # the app is leaving (App.exit), not back at the turn


class FakeView:
    def __init__(self, seat, round, active, kind, acted, log, hp=15):
        from weathering_tui.engine.view_records import PendingView, TurnView

        self.seat, self.round, self.active, self.hp = seat, round, active, hp
        self.pending = PendingView(kind, seat if kind != "react" else -1, {})
        self.log = tuple(range(log))
        me = type("Me", (), {"turn": TurnView(acted=acted)})
        self.me = me


def test_a_recap_is_given_once_per_turn_from_where_the_last_turn_ended():
    recaps = Recaps()
    assert recaps.observe(FakeView(0, 1, 0, "turn", False, 5)) is None  # a first turn
    assert recaps.observe(FakeView(0, 1, 0, "turn", False, 5)) is None  # once only
    recaps.observe(FakeView(0, 1, 0, "turn", True, 8))  # playing: its last view at 8
    # The turn went on. The first view after it already holds the next player's income
    # and draw (entries 8 and 9): the recap starts where this seat's turn last stood.
    recaps.observe(FakeView(1, 1, 1, "turn", False, 10, hp=15))
    since = recaps.observe(FakeView(0, 2, 0, "turn", False, 14, hp=12))
    assert since is not None and since.start == 8 and since.hp == 15
    assert recaps.observe(FakeView(0, 2, 0, "turn", False, 14)) is None
    # a turn that opens with a dialog (a discard down to 6) opens with the recap first
    recaps.observe(FakeView(1, 2, 1, "turn", False, 16))
    since = recaps.observe(FakeView(0, 3, 0, "choose_discard", False, 20))
    assert since is not None and since.start == 14


class LogView(FakeView):
    """A view whose log holds entries of the given kinds (`"turn:1"`: seat 1's turn)."""

    def __init__(self, seat, round, active, kind, acted, kinds, hp=15):
        from weathering_tui.engine.state import LogEntry

        super().__init__(seat, round, active, kind, acted, 0, hp)
        self.pending = type(self.pending)(kind, seat, {})
        entries = []
        for k in kinds:
            name, _, who = k.partition(":")
            entries.append(LogEntry(name, {"seat": int(who)} if who else {}))
        self.log = tuple(entries)


def test_a_round_opening_decision_gets_the_recap_and_the_turn_after_only_adds_others_turns():
    first = ["round", "turn:0", "play", "end_turn", "turn:1", "play", "end_turn"]
    opening = [*first, "round", "event_revealed"]
    for seat in (0, 1):  # (2v1: seats 0 and 1 are Écolos, 2 the Lobbyiste)
        recaps = Recaps()
        recaps.observe(LogView(seat, 1, seat, "turn", False, first[: 2 + 3 * seat]))
        recaps.observe(LogView(seat, 1, seat, "turn", True, first[: 3 + 3 * seat]))
        recaps.observe(LogView(2, 1, 2, "turn", False, [*first, "turn:2"]))
        # the new round's event asks this seat before any turn: the recap comes first
        since = recaps.observe(LogView(seat, 2, 2, "react", False, opening))
        assert since is not None and since.start == 3 + 3 * seat
        assert recaps.observe(LogView(seat, 2, 2, "react", False, opening)) is None  # once
        later = [*opening, "event_active"]
        if seat == 0:  # its turn comes next: nothing new from the others, no second recap
            assert recaps.observe(LogView(0, 2, 0, "turn", False, [*later, "turn:0"])) is None
        else:  # seat 0 played in between: that is recapped, from the opening on
            turn = [*later, "turn:0", "play", "end_turn", "turn:1"]
            since = recaps.observe(LogView(1, 2, 1, "turn", False, turn))
            assert since is not None and since.start == len(opening)


async def test_phase_two_opens_with_the_transition_then_the_recap():
    # The last turn of phase 1: the bots play theirs, then the transition's summary, and
    # the first turn of phase 2 still opens with what the bots did.
    last_round = human_turn(0, 1)
    game = at(setup_for("2v1", seed=5), lambda s: last_round(s) and s.round == 5)
    app = WeatheringApp(lang="en", saves_dir=None, game=game, pace=0, autosave=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = app.screen
        await pilot.press("e")
        seen, told, recapped = [], set(), []
        for _ in range(60):
            await wait_for(pilot, lambda: app.screen.is_modal or screen._my_turn())
            if screen._my_turn() and app.session.view().phase == 2:
                break
            title = getattr(app.screen, "title_text", "") or type(app.screen).__name__
            if "phase 2" in str(title).lower():
                told = set(app.screen.body.splitlines()[:-1])  # (its last: the gauge)
            if isinstance(app.screen, RecapScreen):
                seen.append("recap")
                recapped = list(app.screen.lines)
                await pilot.press("x")
            else:
                seen.append(str(title))
                await pilot.press("1")
            await pilot.pause()
        assert app.session.view().phase == 2
        at_transition = next(i for i, s in enumerate(seen) if "phase 2" in s.lower())
        assert "recap" in seen[at_transition + 1 :], seen
        # what the summary told is not told again (a play-test read it twice)
        assert told and not told & set(recapped), (told, recapped)


def test_a_recap_tells_an_outcome_once_and_keeps_what_names_a_card_or_a_cancel():
    from weathering_tui.engine.state import LogEntry
    from weathering_tui.play.recap import told

    def announce(action, **data):
        return LogEntry("announce", {"action": action, "seat": 1, "cost": 1, **data})

    log = [
        LogEntry("turn", {"seat": 1}),
        announce("draw"),
        LogEntry("draw", {"seat": 1, "count": 1}),  # "Priya draws 1" says it
        announce("play_card", card="agroecologie#1"),  # names the card: kept
        LogEntry("heal", {"amount": 2}),
        announce("discard", card="troc#1"),
        LogEntry("cancel", {"seat": 2}),
        LogEntry("cancelled", {}),  # cancelled: what was attempted stays
        announce("store_ap", amount=2),
        LogEntry("forced", {"seat": 1}),
        LogEntry("stored", {"seat": 1}),
        LogEntry("end_turn", {"seat": 1}),
    ]
    kinds = [(e.kind, e.data.get("action")) for e in told(log, 1)]
    assert kinds == [
        ("draw", None),
        ("announce", "play_card"),
        ("heal", None),
        ("announce", "discard"),
        ("cancel", None),
        ("cancelled", None),
        ("stored", None),
        ("end_turn", None),
    ]


async def test_l_in_the_recap_opens_the_whole_log_and_its_end_gives_the_turn():
    from weathering_tui.tui.screens.log import LogScreen

    game = at(setup_for("2v1", seed=11), human_turn(0, 1))
    app = WeatheringApp(lang="en", saves_dir=None, game=game, pace=0, autosave=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = app.screen
        await pilot.press("e")
        for _ in range(40):
            await wait_for(pilot, lambda: app.screen.is_modal or screen._my_turn())
            if isinstance(app.screen, RecapScreen) or screen._my_turn():
                break
            await pilot.press("1")
        assert isinstance(app.screen, RecapScreen)
        await pilot.press("l")
        await wait_for(pilot, lambda: isinstance(app.screen, LogScreen))
        await pilot.press("escape")
        await wait_for(pilot, lambda: screen._my_turn() or isinstance(app.screen, ChoiceModal))


async def test_two_keys_queued_on_the_recap_close_it_and_nothing_under_it():
    """A key typed twice before the recap's pop is drawn (a fast key repeat, a slow SSH
    link) closes the recap once: the second dismissed the screen under it (the game, back
    to the lobby; or a dialog just pushed, before it mounted: NoMatches in its on_mount)."""
    from textual.app import App
    from textual.screen import Screen

    closed = []

    class Under(Screen):
        pass

    app = App()
    async with app.run_test(size=(80, 24)) as pilot:
        under = Under()
        app.push_screen(under)
        recap = RecapScreen("Since your last turn", ["a line"], "any key goes on")
        app.push_screen(recap, closed.append)
        await pilot.pause()
        assert app.screen is recap
        for _ in range(2):  # both queued before either is handled
            recap.post_message(events.Key("space", " "))
        await pilot.pause()
        await pilot.pause()
        assert app.screen is under and closed == [None]


async def test_a_game_loaded_after_phase_two_s_first_moves_shows_no_transition_again():
    """Saved in phase 2's first round after some moves and loaded: the game goes on
    without the transition's summary (a play-test saw it again, with the gauge as the
    transition had left it, and thought the phase began again)."""
    from weathering_tui.tui.screens.choice import ChoiceModal

    def phase_two_moved(s) -> bool:
        kinds = [e.kind for e in s.log]
        since = kinds[len(kinds) - 1 - kinds[::-1].index("transition") :] if s.phase == 2 else []
        return s.round == 6 and "announce" in since  # a move made in phase 2's first round

    def first(stop):
        for seed in range(1, 30):
            try:
                return at(setup_for("2v1", seed=5), stop, seed=seed)
            except AssertionError:  # that game ended first
                continue
        raise AssertionError("no game reached that moment")

    for fresh, game in (
        (False, first(lambda s: phase_two_moved(s) and human_turn(0, 2)(s))),
        (True, first(lambda s: s.phase == 2)),
    ):
        app = WeatheringApp(lang="en", saves_dir=None, game=game, pace=0, autosave=False)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            await pilot.pause()
            titled = (
                isinstance(app.screen, ChoiceModal) and "phase 2" in app.screen.title_text.lower()
            )
            assert titled == fresh, (fresh, getattr(app.screen, "title_text", app.screen))


async def test_a_recap_longer_than_its_box_says_more_is_below():
    """A play-test closed the box with what hurt it below the fold: when the lines
    overflow, the keys line says so first; when they fit, it does not."""
    from textual.app import App
    from textual.widgets import Static

    class Host(App):
        def __init__(self, recap: RecapScreen):
            super().__init__()
            self.recap = recap

        def on_mount(self) -> None:
            self.push_screen(self.recap)

    for count, overflows in ((30, True), (3, False)):
        lines = [f"line {n}" for n in range(count)]
        recap = RecapScreen("title", lines, "Any key: go on", "↓ more below")
        async with Host(recap).run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            await pilot.pause()
            said = str(recap.query_one("#recap-keys", Static).render())
            assert ("↓ more below" in said) == overflows, said
            assert said.endswith("Any key: go on")


def test_the_transition_s_span_runs_from_it_to_the_next_round():
    from weathering_tui.engine.state import LogEntry
    from weathering_tui.play.recap import transition_span

    def log(*kinds):
        return [LogEntry(kind, {}) for kind in kinds]

    assert transition_span(log("round", "turn", "end_turn")) == range(0)
    both = log("turn", "end_turn", "round_end", "transition", "synergy", "prepare", "round", "turn")
    assert transition_span(both) == range(3, 6)
    assert transition_span(log("end_turn", "transition", "synergy")) == range(1, 3)  # going on
