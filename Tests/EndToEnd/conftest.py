import sys
from pathlib import Path

# The tests import support.py from this folder.
sys.path.insert(0, str(Path(__file__).resolve().parent))


def pytest_configure(config):
    # `make check` runs the tests without this mark; `make test` runs them all.
    config.addinivalue_line("markers", "slow: a browser suite, a container, Autobahn, testssl.sh, a build of "
                                       "its own, or ten seconds or more; left out of `make check`")
