import os

# NO_COLOR changes every Textual snapshot; the tests must not depend on the caller's shell.
os.environ.pop("NO_COLOR", None)

import pytest  # noqa: E402


@pytest.fixture(autouse=True)
def _own_data_folder(tmp_path_factory, monkeypatch):
    """No test writes to the user's real data folder: the default saves folder
    (platformdirs, honouring XDG_DATA_HOME) points into a temporary one."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path_factory.mktemp("data")))
    monkeypatch.delenv("WEATHERING_SAVES", raising=False)


@pytest.fixture
def redis_url(tmp_path):
    """A redis-server of the test's own (helpers.RedisServer): its URL."""
    from helpers import RedisServer

    server = RedisServer(tmp_path / "redis").start()
    try:
        yield server.url
    finally:
        server.stop()
