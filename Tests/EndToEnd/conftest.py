import sys
from pathlib import Path

# The tests import support.py from this folder.
sys.path.insert(0, str(Path(__file__).resolve().parent))


def pytest_configure(config):
    # `make check` runs the tests without this mark; `make test` runs them all.
    config.addinivalue_line("markers", "slow: takes a minute or more, or builds or installs something "
                                       "(a browser, a container, a package); left out of `make check`")
