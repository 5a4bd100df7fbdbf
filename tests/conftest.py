import os

# NO_COLOR changes every Textual snapshot; the tests must not depend on the caller's shell.
os.environ.pop("NO_COLOR", None)
os.environ.pop("WEATHERING_COLORS", None)

import pytest  # noqa: E402
from helpers import OPENSSH_SKIP  # noqa: E402


def pytest_terminal_summary(terminalreporter):
    """One line that says how many tests a missing OpenSSH skipped, and why."""
    skipped = [
        report
        for report in terminalreporter.stats.get("skipped", [])
        if OPENSSH_SKIP in str(getattr(report, "longrepr", ""))
    ]
    if skipped:
        terminalreporter.write_line(
            f"{OPENSSH_SKIP} (sshd, ssh; sshd run by root): {len(skipped)} tests of the real "
            "ForceCommand door and SSH flood skipped; openssh-server and openssh-client, and "
            "root for sshd, run them (under CI=true they fail instead)",
            yellow=True,
        )


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
