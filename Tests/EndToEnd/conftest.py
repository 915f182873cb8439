import sys
from pathlib import Path

# The tests import support.py from this folder.
sys.path.insert(0, str(Path(__file__).resolve().parent))


def pytest_configure(config):
    # `make check` runs the tests without this mark; `make test` runs them all.
    config.addinivalue_line("markers", "slow: a browser suite, a container, Autobahn, testssl.sh, a build of "
                                       "its own, or ten seconds or more; left out of `make check`")


def pytest_collection_finish(session):
    # The container test's build starts now, in the background, if that test is to run.
    if session.config.option.collectonly:
        return
    if any(item.path.name == "test_container.py" for item in session.items):
        import container_build
        container_build.start()


def pytest_sessionfinish(session, exitstatus):
    if "container_build" in sys.modules:
        sys.modules["container_build"].stop()
