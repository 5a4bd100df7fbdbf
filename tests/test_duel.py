"""`weathering duel`: the arithmetic against known values, and duels that are fair by
construction (each deal played both ways)."""

import functools
import json
import math

import pytest

from weathering_tui.cli import main
from weathering_tui.sim import stats
from weathering_tui.sim.duel import run_duel


@pytest.mark.parametrize(
    ("wins", "games", "low", "high"),
    [
        (8, 10, 0.4902, 0.9433),  # the textbook example (Newcombe 1998, method 3)
        (0, 10, 0.0, 0.2775),
        (10, 10, 0.7225, 1.0),
        (50, 100, 0.4038, 0.5962),
        (600, 1000, 0.5693, 0.6300),
    ],
)
def test_wilson_interval_matches_known_values(wins, games, low, high):
    got = stats.wilson(wins, games)
    assert got == pytest.approx((low, high), abs=5e-4)


def test_wilson_with_no_game_says_nothing_is_known():
    assert stats.wilson(0, 0) == (0.0, 1.0)


def test_sprt_bounds_and_ratio_are_wald_s():
    test = stats.Sprt(0.5, 0.6, 0.05, 0.05)
    assert test.bounds == pytest.approx((-math.log(19), math.log(19)))
    assert test.llr(10, 0) == pytest.approx(10 * math.log(1.2))
    assert test.llr(0, 10) == pytest.approx(10 * math.log(0.8))
    assert test.llr(6, 4) == pytest.approx(6 * math.log(1.2) + 4 * math.log(0.8))
    # log 19 / log 1.2 = 16.15: seventeen straight wins accept H1, sixteen do not.
    assert test.verdict(16, 0) is None
    assert test.verdict(17, 0) == "H1"
    # log 19 / -log 0.8 = 13.2: fourteen straight losses accept H0.
    assert test.verdict(0, 13) is None
    assert test.verdict(0, 14) == "H0"


def test_sprt_refuses_meaningless_hypotheses():
    with pytest.raises(ValueError):
        stats.Sprt(0.5, 0.5)
    with pytest.raises(ValueError):
        stats.Sprt(0.5, 1.0)


def test_brier_scores_and_deciles():
    pairs = [(0.9, 1), (0.8, 1), (0.3, 0), (0.25, 1)]
    assert stats.brier(pairs) == pytest.approx((0.01 + 0.04 + 0.09 + 0.5625) / 4)
    assert stats.brier_base(pairs) == pytest.approx(0.75 * 0.25)
    rows = {row["decile"]: row for row in stats.deciles(pairs)}
    assert set(rows) == {2, 3, 8, 9}
    assert rows[2] == {"decile": 2, "samples": 1, "predicted": 25.0, "observed": 100.0}
    assert stats.deciles([(1.0, 1)])[0]["decile"] == 9  # a certainty falls in the last tenth


def test_a_bot_against_itself_scores_exactly_half():
    """Both games of a deal are the same game with the bots' names swapped: whatever
    side wins it, A wins one of the two. Dealing each game afresh would not give 50 %."""
    duel = run_duel("heuristic", "heuristic", "2v1", deals=6, seed=40)
    summary = duel.summary()
    assert summary["games"] == 12
    assert summary["a_score"] == 0.5
    hps = [r.hp for r in duel.records]
    assert hps[0::2] == hps[1::2]


def test_workers_change_nothing_but_the_clock():
    one = run_duel("heuristic", "random", "1v1", deals=4, seed=7)
    two = run_duel("heuristic", "random", "1v1", deals=4, seed=7, workers=2)
    strip = lambda d: [(r.deal, r.a_side, r.a_won, r.hp) for r in d.records]  # noqa: E731
    assert strip(one) == strip(two)
    assert [r.a_side for r in one.records] == ["ecologist", "lobbyist"] * 4


def test_sprt_stops_a_one_sided_duel_early():
    duel = run_duel("heuristic", "random", "1v1", deals=40, seed=3, sprt=stats.Sprt(0.5, 0.7))
    assert duel.stopped_by_sprt == "H1"
    assert duel.games < 80


def test_duel_command_prints_the_json_the_readme_promises(capsys):
    code = main(["duel", "heuristic", "random", "--config", "1v1", "--games", "2", "--json"])
    assert code == 0
    out = json.loads(capsys.readouterr().out)
    for key in ("games", "a_score", "ci_low", "ci_high", "seconds_per_decision", "calibration"):
        assert key in out
    assert out["games"] == 4
    assert set(out["seconds_per_decision"]) == {"a", "b"}
    assert {"brier", "brier_base", "deciles"} <= set(out["calibration"])
    assert out["ci_low"] <= out["a_score"] <= out["ci_high"]


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["--lang", "fr", "duel"], ("heuristic contre random", "parties sur 4", "100,0 %")),
        (["duel", "--lang", "fr"], ("heuristic contre random", "intervalle à 95 %")),
        (["--lang", "en", "duel"], ("heuristic vs random", "won 4 of 4", "95 % range")),
    ],
)
def test_the_duel_speaks_the_player_s_language(capsys, args, words):
    """Its words in French too, and --lang after the command as before it (`duel --lang
    fr` was read as a bot's name)."""
    assert main([*args, "heuristic", "random", "--games", "2"]) == 0
    out = capsys.readouterr().out
    assert all(w in out for w in words), out
    assert "0.00 ms" not in out and "0,00 ms" not in out  # (the random bot: "< 0.01 ms")


def test_a_searching_bot_reports_its_beliefs_for_calibration(monkeypatch):
    from weathering_tui import bots

    # The expert with few rollouts: the plumbing of beliefs is what is tested here.
    monkeypatch.setitem(bots.BOTS, "pimc", functools.partial(bots.ExpertBot, rollouts=2))
    duel = run_duel("pimc", "heuristic", "1v1", deals=1, seed=11)
    summary = duel.summary()
    calibration = summary["calibration"]
    assert calibration["samples"] > 10
    assert all(0 <= row["predicted"] <= 100 for row in calibration["deciles"])
    assert sum(row["samples"] for row in calibration["deciles"]) == calibration["samples"]


def test_every_bot_can_enter_a_duel():
    from weathering_tui.bots import BOTS
    from weathering_tui.cli import DUEL_BOTS

    assert set(DUEL_BOTS) == set(BOTS)


@pytest.mark.parametrize("configuration", ["1v1", "2v1", "3v2"])
def test_a_fair_deal_is_the_game_a_new_player_gets(configuration):
    """By default a duel deals the configuration's recommended difficulty (what the new
    game screen offers first); `random` deals any characters, ☠️ included."""
    from weathering_tui.content import default_content
    from weathering_tui.engine import Setup, new_game
    from weathering_tui.sim.duel import deal_setup

    content = default_content()
    fair = content.configurations[configuration].recommended_label
    labels = set()
    for deal in range(1, 41):
        setup = deal_setup(configuration, deal)
        lobbyists = [s.character for s in setup.seats if s.side == "lobbyist"]
        labels |= {content.characters[c].label for c in lobbyists}
        assert deal_setup(configuration, deal, "random") == Setup.standard(configuration, deal)
    assert labels == {fair}
    dealt = {
        content.characters[p.character].label
        for deal in range(1, 41)
        for p in new_game(deal_setup(configuration, deal, "random")).players
        if p.side == "lobbyist"
    }
    assert len(dealt) > 1  # any characters: other labels than the fair one come up


def test_the_belief_fit_finds_the_slope_and_shift_that_made_the_outcomes():
    """Outcomes made by a known model (slope 0.5 and shift 0.3 on the log-odds), as exact
    counts: the fit finds it, and `calibrated` reads it (RAW: the share as it is)."""
    from weathering_tui.bots import belief

    pairs = []
    for k in range(1, 20):
        share = k / 20
        chance = 1 / (1 + math.exp(-(0.5 * belief.logit(share) + 0.3)))
        wins = round(chance * 2000)
        pairs += [(share, 1)] * wins + [(share, 0)] * (2000 - wins)
    slope, shift = belief.fit(pairs)
    assert slope == pytest.approx(0.5, abs=0.01)
    assert shift == pytest.approx(0.3, abs=0.01)
    old = belief.SLOPE, belief.SHIFT
    try:
        belief.SLOPE, belief.SHIFT = slope, shift
        expected = 1 / (1 + math.exp(-(0.5 * math.log(0.8 / 0.2) + 0.3)))
        assert belief.calibrated(0.8) == pytest.approx(expected, abs=0.01)
        assert belief.calibrated(0.5) == pytest.approx(1 / (1 + math.exp(-0.3)), abs=0.01)
        assert belief.calibrated(1.0) < 0.99  # a share of 1 is never told certain
        belief.RAW = True
        assert belief.calibrated(0.37) == 0.37
    finally:
        belief.SLOPE, belief.SHIFT = old
        belief.RAW = False


def test_the_expert_tells_its_calibrated_belief():
    """What the duels score is the chance told: the rollouts' share read by the fit."""
    from weathering_tui.bots import HeuristicBot, belief
    from weathering_tui.bots.search import SearchBot
    from weathering_tui.engine import Setup, apply, new_game, view_for

    state = new_game(Setup.standard("1v1", seed=4))
    while state.pending.kind != "turn":
        seat = state.pending.seat
        apply(state, HeuristicBot(seat).choose(view_for(state, seat)))
    view = view_for(state, state.pending.seat)
    bot = SearchBot(seed=1, budget=12)
    share = bot.rank(view)[0].win
    bot = SearchBot(seed=1, budget=12)
    bot.choose(view)
    assert share is not None and bot.belief == pytest.approx(belief.calibrated(share))
    assert bot.belief != share  # (read through the fit, not told as it is)
