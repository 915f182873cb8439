"""What an idle rxlive maps: libpq (and the GnuTLS, Kerberos, LDAP and p11-kit libraries it
brings, 3.3 MB resident) is opened only by a server whose credential store is PostgreSQL,
so a server on SQLite or the simulated login never maps it; and no server maps Foundation,
whose libraries hold about 7 MB before the first session: its modules import
FoundationEssentials, and RxSwift imports Foundation only weakly (docs/BENCHMARKS.md)."""
from support import start_rxlive


def mapped_files(pid: int) -> set:
    with open(f"/proc/{pid}/maps") as maps:
        return {line.split()[-1].rsplit("/", 1)[-1] for line in maps if "/" in line}


def test_an_idle_server_on_sqlite_maps_no_libpq():
    with start_rxlive(extra_args=("--loops", "1")) as server:
        files = mapped_files(server.proc.pid)
        assert any(name.startswith("libsqlite3.so") for name in files), files
        assert not [name for name in files if name.startswith(("libpq.so", "libgnutls.so", "libkrb5.so"))]


def test_a_simulated_login_server_maps_no_libpq():
    with start_rxlive(extra_args=("--loops", "1", "--login-service", "simulated")) as server:
        files = mapped_files(server.proc.pid)
        assert not [name for name in files if name.startswith(("libpq.so", "libgnutls.so", "libkrb5.so"))]


def test_an_idle_server_maps_foundation_essentials_and_not_foundation():
    with start_rxlive(extra_args=("--loops", "1")) as server:
        files = mapped_files(server.proc.pid)
        assert "libFoundationEssentials.so" in files, files
        assert not files & {"libFoundation.so", "libFoundationInternationalization.so", "lib_FoundationICU.so"}, files
