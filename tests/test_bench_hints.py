"""The hint bench's verdict "not told apart from the reference's best": a paired 95 %
interval on the difference, over the worlds both moves met."""

from weathering_tui.bench.hints import told_apart


def test_a_clear_lead_on_the_same_worlds_is_told_apart():
    better = [1.0] * 40 + [0.0] * 200
    assert told_apart(better, [0.0] * 240)


def test_the_same_outcomes_are_not_told_apart():
    same = [1.0, 0.0] * 120
    assert not told_apart(same, list(same))


def test_three_worlds_in_240_are_within_the_noise_five_are_not():
    worse = [0.0] * 240
    assert not told_apart([1.0] * 3 + [0.0] * 237, worse)
    assert told_apart([1.0] * 5 + [0.0] * 235, worse)


def test_the_hint_wait_bench_asks_at_a_human_s_turn_in_each_configuration():
    from weathering_tui.bench.hint_wait import games

    found = games(3)
    assert [g.setup.configuration for g in found] == ["1v1", "2v1", "3v2"]
    for game in found:
        pending = game.state.pending
        assert pending.kind == "turn" and pending.seat == 0
        assert [seat.human for seat in game.setup.seats] == [True] + [False] * (
            len(game.setup.seats) - 1
        )
