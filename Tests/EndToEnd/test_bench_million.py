"""scripts/bench-million.py at a small scale: two servers (one process may hold only part of
the sessions) and two `ws-bench hold` clients open the sessions, send changes to random
ones, check every sum and close them all; the one line it prints has every field. The servers
ping every second (`--ping-interval`), and the quiet window is an interval and 5 s."""
import re
import subprocess
import sys

import pytest

from support import REPO, binary


@pytest.mark.slow  # four processes and their fixed waits: 15 s or more
def test_a_small_million_run_prints_its_line_with_every_session_right(tmp_path):
    done = subprocess.run(
        [sys.executable, str(REPO / "scripts/bench-million.py"), "--bin", str(binary("rxlive").parent),
         "--out", str(tmp_path), "--keep-sysctls", "--sessions", "2000", "--per-process", "1200",
         "--rate", "400", "--seconds", "2", "--ping-interval", "1"],
        capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    line = re.search(r"^million: sessions=(\d+) processes=(\d+) open_s=\S+ bytes_per_session=\d+ total_rss_mb=\d+ "
                     r"p99_ms=\S+ wrong=(\d+) errors=(\d+) ping_cpu_pct=(\S+) resources_after=(-?\d+)$", done.stdout, re.M)
    assert line, done.stdout
    sessions, processes, wrong, errors, resources_after = map(int, line.group(1, 2, 3, 4, 6))
    ping_cpu_pct = float(line.group(5))
    # 2,000 sessions pinged each second: a few % of a core. At the default 30 s none would
    # be pinged yet (a first ping comes after 15 s or more).
    assert ping_cpu_pct > 0.5, done.stdout
    assert (sessions, processes) == (2000, 2)
    assert (wrong, errors, resources_after) == (0, 0, 0)
    sent = re.search(r"(\d+) changes sent over 2 s \(\d+/s\), (\d+) right sums", done.stdout)
    assert sent and int(sent.group(1)) > 0 and sent.group(1) == sent.group(2), done.stdout
    assert "million: pings alone for 6 s" in done.stdout, done.stdout
    assert (tmp_path / "rss.svg").read_text().startswith("<svg")
    assert "messages" in (tmp_path / "rss.csv").read_text()
