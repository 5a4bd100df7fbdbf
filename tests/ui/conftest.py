import pytest


@pytest.fixture(autouse=True)
def _keys_as_fast_as_a_pilot(monkeypatch, request):
    """A pilot presses keys the moment a screen is up; a person needs longer, and the
    half-second after a privacy screen during which keys are dropped (so that an Enter
    pressed twice answers nothing unseen) is tested where it matters, in the tests
    marked `handed_over`."""
    from weathering_tui.tui.screens import privacy

    if request.node.get_closest_marker("handed_over") is None:
        monkeypatch.setattr(privacy, "HANDED_OVER", 0.0)
