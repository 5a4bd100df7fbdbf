"""`weathering review`: the same save gives the same review; each seat is judged from
its own view alone (the cards it could not see dealt again: the same review); the JSON
the README promises."""

import json
import random

from test_history import scrambled

from weathering_tui.bots.review import SeatDecision, decisions, review, review_decisions, to_json
from weathering_tui.cli import main
from weathering_tui.engine import apply, new_game, view_for
from weathering_tui.sim.simulate import play_game, setup_for
from weathering_tui.storage.savefile import SavedGame, write_save


def a_game(seed=8):
    setup = setup_for("1v1", seed)
    state, actions = play_game(setup, "random", lobbyists="heuristic", stop_after=40)
    return setup, actions, state


def test_the_same_game_gives_the_same_review():
    setup, actions, _ = a_game()
    first = review(setup, actions, budget=4, confirm=4)
    again = review(setup, actions, budget=4, confirm=4)
    assert first == again
    assert first.curve and all(0 <= p <= 1 for _, p in first.curve)
    assert sum(first.reviewed.values()) > 10


def test_a_seat_is_judged_from_its_own_view_alone():
    """The views a review reads are built from a game where every card the seat cannot
    see is dealt again at each of its decisions: the review of that seat is the same."""
    setup, actions, _ = a_game(seed=9)
    seat = 0
    rng = random.Random(4)
    state = new_game(setup)
    twins = []
    for index, action in enumerate(actions):
        pending = state.pending
        if pending.seat == seat:  # every decision of the seat: its turn and the others
            twin = scrambled(state, seat, rng)
            assert [p.hand for p in twin.players] != [p.hand for p in state.players]
            view = view_for(twin, seat, with_log=False)
            if len(view.legal) > 1:
                twins.append(SeatDecision(index, view, action))
        apply(state, action)
    real = decisions(setup, actions, [seat])
    assert [d.index for d in real] == [d.index for d in twins]
    assert review_decisions(real, budget=4, confirm=4) == review_decisions(
        twins, budget=4, confirm=4
    )


def test_review_json_has_the_curve_and_each_seat_s_costliest_decisions(tmp_path, capsys):
    setup, actions, state = a_game(seed=14)
    path = tmp_path / "g.toml"
    write_save(path, SavedGame(setup, state, "t", "t"))
    assert main(["--lang", "en", "review", str(path), "--budget", "8", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert set(out) >= {"curve", "seats"}
    assert all(len(point) == 2 for point in out["curve"])
    assert any(out["seats"].values()), "a game with costly decisions"
    for items in out["seats"].values():
        assert len(items) <= 3
        for item in items:
            assert set(item) == {"index", "round", "played", "suggested", "then", "cost", "gauge"}
            assert item["cost"] > 0
        costs = [i["cost"] for i in items]
        assert costs == sorted(costs, reverse=True)
    items = [item for items in out["seats"].values() for item in items]
    assert any(item["then"] for item in items) and all(item["gauge"] > 0 for item in items)
    assert main(["--lang", "en", "review", str(path), "--budget", "4", "--seat", "1"]) == 0
    text = capsys.readouterr().out
    assert "win chance" in text and "decisions reviewed" in text
    assert main(["--lang", "en", "review", str(path), "--seat", "7"]) == 2


def test_to_json_names_moves_by_their_keys():
    setup, actions, _ = a_game(seed=8)
    result = review(setup, actions, budget=4)
    data = to_json(result)
    assert json.loads(json.dumps(data)) == data


def test_the_review_s_sentences_end_once(tmp_path, capsys):
    """A card's text ends with a full stop: the review's sentence must not add another
    ("…draw 2. No PA.. Cost about…", seen in a review); and it says why the expert's
    move was worth more: the moves of the turn it leads to, the final gauge."""
    setup, actions, state = a_game(seed=14)
    path = tmp_path / "g.toml"
    write_save(path, SavedGame(setup, state, "t", "t"))
    assert main(["--lang", "en", "review", str(path), "--budget", "8"]) == 0
    out = capsys.readouterr().out
    assert "Cost about" in out
    # (a card's own words may say ", then": the moves it leads to are told by " · then")
    said = "the expert: play Albedo effect: Discard 1 card, with no PA, then draw 2 · then "
    assert said + "discard Heat dome (+3 PA) · then play Community garden: +1 PV. Cost" in out
    assert "; the gauge ends about 5 PV higher)." in out
    assert ".." not in out.replace("...", "")


def test_a_decision_of_the_setup_is_said_so_not_round_0():
    from weathering_tui.words import Tr
    from weathering_tui.words.review import review_when

    assert review_when(Tr("en"), 0) == "setup"
    assert review_when(Tr("fr"), 0) == "mise en place"
    assert review_when(Tr("en"), 3) == "phase 1, round 3"
    assert review_when(Tr("fr"), 6) == "phase 2, tour 1"  # as the header numbers it


def test_a_review_never_tells_a_seat_to_hurt_its_own_side(monkeypatch):
    """A better move that hurts the seat's own side is never listed (a review told an
    Écolo to play Overconsumption: −2 PV): every suggestion seen as harmful, none left."""
    from weathering_tui.bots import review as review_module

    setup, actions, _ = a_game(seed=12)
    listed = review(setup, actions, budget=8, confirm=32)
    assert any(listed.seats.values()), "the game has costly decisions to drop"
    monkeypatch.setattr(review_module, "harms_own_side", lambda bot, view, action: True)
    assert not any(review(setup, actions, budget=8, confirm=32).seats.values())


def test_a_flagged_decision_is_named_only_if_worlds_of_its_own_confirm_it(monkeypatch):
    """The first search's pick is looked at again on fresh worlds, which decide and give
    the cost: a play-test's review called a mulligan pick a 29-point mistake that other
    seeds ranked first (14 worlds a move)."""
    from weathering_tui.bots.search import Estimate, SearchBot

    setup, actions, _ = a_game(seed=12)
    flagged = review(setup, actions, budget=8, confirm=32)
    assert any(flagged.seats.values())
    asked = []

    def played_wins(self, view, moves, worlds, should_stop=None):
        asked.append(worlds)
        suggested, played = moves
        return [
            Estimate(played, 0.6, 20.0, worlds),
            Estimate(suggested, 0.5, 18.0, worlds, 1.0, 2.0),
        ]

    monkeypatch.setattr(SearchBot, "measure", played_wins)
    assert not any(review(setup, actions, budget=8, confirm=32).seats.values())
    assert asked and set(asked) == {32}

    def suggested_wins(self, view, moves, worlds, should_stop=None):
        suggested, played = moves
        return [
            Estimate(suggested, 0.9, 25.0, worlds),
            Estimate(played, 0.4, 15.0, worlds, 3.0, 10.0),
        ]

    monkeypatch.setattr(SearchBot, "measure", suggested_wins)
    confirmed = review(setup, actions, budget=8, confirm=32)
    costs = [c.cost for items in confirmed.seats.values() for c in items]
    assert costs and set(costs) == {50.0}  # the cost measured on the worlds of its own


def test_the_curve_says_what_the_line_of_a_mistake_says_and_every_seat_is_listed():
    """At a decision named a mistake, the curve shows the side's chance after the move
    played, as its line does ("57% instead of 84%"): it showed the best move's share,
    100 % there, from the first search. And a seat with no mistake is listed, empty."""
    setup, actions, _ = a_game(seed=14)
    result = review(setup, actions, budget=8)
    named = [c for items in result.seats.values() for c in items]
    assert named
    curve = dict(result.curve)
    for c in named:
        ecologist = c.view.me.side == "ecologist"
        assert curve[c.index] == (c.win_played if ecologist else 1 - c.win_played)
    clean = review(*a_game(seed=9)[:2], budget=8)  # a game with no mistake named
    assert set(clean.reviewed) == {0, 1} and not any(clean.seats.values())
    assert to_json(clean)["seats"] == {"0": [], "1": []}
