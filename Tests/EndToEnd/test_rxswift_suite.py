"""RxSwift's own Linux suite (its AllTestz files, unchanged) against our Rx library, through
scripts/rx/rxswift-suite.sh: at least 1,095 of its tests pass (issue 34). The script builds a
package of its own, so the first run takes minutes; docs/RXEXAMPLE.md lists the failures."""
import os
import re
import subprocess
from pathlib import Path

import pytest

from support import REPO

RXSWIFT_GIT = Path(os.environ.get("RXSWIFT_GIT", "/work/.mirror/ReactiveX+RxSwift/repo"))


@pytest.mark.slow  # builds a package of its own and runs 1,189 tests: minutes
@pytest.mark.skipif(not RXSWIFT_GIT.exists(),
                    reason=f"no RxSwift repository at {RXSWIFT_GIT} (set RXSWIFT_GIT to a clone or mirror)")
def test_rxswift_suite_passes_at_least_1095_of_its_tests():
    done = subprocess.run(["scripts/rx/rxswift-suite.sh"], cwd=REPO, capture_output=True, text=True,
                          env={**os.environ, "RXSWIFT_GIT": str(RXSWIFT_GIT)}, timeout=1500)
    summary = re.search(r"^rxswift-suite: passed=(\d+) failed=(\d+) total=(\d+)$", done.stdout, re.M)
    assert summary, done.stdout + done.stderr[-4000:]
    passed, failed, total = map(int, summary.groups())
    assert passed + failed == total, done.stdout
    assert passed >= 1095, done.stdout
    assert done.returncode == 0, done.stdout + done.stderr[-4000:]
