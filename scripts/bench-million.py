#!/usr/bin/env python3
"""One million live sum sessions on this machine (issue 38): see scripts/bench-million.sh.

Starts as many `rxlive --loops 1` servers as the sessions need (one process may open only as
many files as its hard limit allows), each on its own port, and one `ws-bench hold` client per
server. The clients open every session (and give it its second and third number) and wait;
the servers' CPU is read over a quiet window that holds a whole ping interval; then the
clients send RATE changes a second, one message each, to random sessions for SECONDS and
check every sum; then they close everything. Kernel limits are raised where root may, and
loopback is left out of connection tracking for the run (--track-connections keeps it).
Prints what it changed and how busy the pings and messages left the machine, then one line:

  million: sessions=N processes=P open_s=S bytes_per_session=B total_rss_mb=T p99_ms=L
           wrong=W errors=E ping_cpu_pct=C resources_after=R

and writes the servers' total RSS over time (rss.csv, rss.svg) to the output folder.
"""
import argparse
import math
import os
import re
import resource
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
PAGE = os.sysconf("SC_PAGE_SIZE")
TICKS = os.sysconf("SC_CLK_TCK")
# Kernel limits a million connections on loopback needs, and the value asked for each.
SYSCTLS = {
    "net.ipv4.ip_local_port_range": "1024 65535",
    "net.core.somaxconn": "4096",
    "net.ipv4.tcp_max_syn_backlog": "8192",
    # Loopback connections are tracked too when netfilter is loaded: one entry each.
    "net.netfilter.nf_conntrack_max": "2000000",
}


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def rss_kib(pid):
    try:
        with open(f"/proc/{pid}/status") as status:
            for line in status:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


def cpu_seconds(pid):
    try:
        fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / TICKS  # utime, stime
    except (OSError, IndexError):
        return 0.0


def machine_cpu():
    """The machine's CPU time since boot from /proc/stat, in clock ticks: (busy, idle, steal)."""
    with open("/proc/stat") as stat:
        user, nice, system, idle, iowait, irq, softirq, steal = (int(v) for v in stat.readline().split()[1:9])
    return user + nice + system + irq + softirq, idle + iowait, steal


def machine_share(before, after):
    """Busy and stolen shares (%) of the machine's CPU time between two `machine_cpu()` readings."""
    busy, idle, steal = (b - a for a, b in zip(before, after))
    total = max(busy + idle + steal, 1)
    return 100 * busy / total, 100 * steal / total


def metric(port, name):
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=10) as reply:
            for line in reply.read().decode().splitlines():
                if line.startswith(name + " "):
                    return int(float(line.split()[1]))
    except OSError:
        pass
    return None


# Loopback traffic left out of connection tracking for the run (`iptables -t raw`): a host
# serving a million connections does not track them (a table entry each, a lookup per packet;
# here the container test's NAT rules also see every new connection).
NOTRACK_RULES = [["PREROUTING", "-i", "lo"], ["OUTPUT", "-o", "lo"]]


def untrack_loopback():
    """Adds the NOTRACK rules where iptables may; returns the rules added (to take out after)."""
    added = []
    if not shutil.which("iptables"):
        return added
    for rule in NOTRACK_RULES:
        command = ["iptables", "-t", "raw", "-I", rule[0], *rule[1:], "-j", "CT", "--notrack"]
        if subprocess.run(command, capture_output=True).returncode == 0:
            added.append(rule)
    return added


def track_loopback_again(added):
    for rule in added:
        subprocess.run(["iptables", "-t", "raw", "-D", rule[0], *rule[1:], "-j", "CT", "--notrack"], capture_output=True)


def raise_sysctls():
    """Sets what may be set; returns what to put back and the lines saying what could not."""
    restore, refused = {}, []
    for key, wanted in SYSCTLS.items():
        path = Path("/proc/sys") / key.replace(".", "/")
        try:
            if not path.exists():
                continue  # that part of the kernel is not loaded: nothing to raise
            before = path.read_text().strip()
            if before.split() != wanted.split():
                path.write_text(wanted)
                restore[path] = before
        except OSError as error:
            refused.append(f"{key} (wanted {wanted}): {error.strerror}")
    return restore, refused


class Server:
    def __init__(self, binary, out, index, ping_interval):
        self.port = free_port()
        self.log = out / f"server-{index}.log"
        interval = ["--ping-interval", f"{ping_interval:g}"] if ping_interval else []
        self.proc = subprocess.Popen(
            [str(binary), "--host", "127.0.0.1", "--port", str(self.port), "--loops", "1",
             "--login-service", "simulated", "--dashboard", "off", "--public", str(REPO / "Public"), *interval],
            stdout=open(self.log, "wb"), stderr=subprocess.STDOUT, start_new_session=True)

    def wait_ready(self, timeout=60):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise SystemExit(f"million: a server exited at start; see {self.log}")
            found = re.search(r"sessions: at most (\d+) at once", self.log.read_text(errors="replace"))
            if found and metric(self.port, "rxlive_sessions_open") is not None:
                return int(found.group(1))
            time.sleep(0.1)
        raise SystemExit(f"million: a server was not ready in {timeout} s; see {self.log}")


class Client:
    def __init__(self, binary, out, index, port, sessions, rate, seconds):
        self.control = out / f"control-{index}"
        self.control.mkdir(exist_ok=True)
        for name in ("go", "close"):
            (self.control / name).unlink(missing_ok=True)
        self.latencies = out / f"latency-{index}.txt"
        self.lines = []
        self.proc = subprocess.Popen(
            [str(binary), "hold", "--port", str(port), "--sessions", str(sessions), "--rate", str(rate),
             "--seconds", str(seconds), "--control", str(self.control), "--latency-file", str(self.latencies),
             "--timeout", "3600"],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, start_new_session=True)
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self):
        for line in self.proc.stdout:
            self.lines.append(line.strip())

    def line(self, prefix):
        return next((line for line in self.lines if line.startswith(prefix)), None)

    def signal(self, name):
        (self.control / name).touch()


def wait_all(clients, prefix, timeout, what, progress=None):
    """Every client's line starting with `prefix`. With `progress` (a count that should grow),
    gives up when it has not grown for a minute."""
    deadline = time.monotonic() + timeout
    last_count, last_growth = -1, time.monotonic()
    while time.monotonic() < deadline:
        if all(client.line(prefix) for client in clients):
            return [client.line(prefix) for client in clients]
        dead = [client for client in clients if client.proc.poll() is not None and not client.line(prefix)]
        if dead:
            raise RuntimeError(f"a client ended before {what}: {' | '.join(dead[0].lines[-3:])}")
        if progress and time.monotonic() - last_growth > 10:
            count = progress()
            if count > last_count:
                last_count, last_growth = count, time.monotonic()
            elif time.monotonic() - last_growth > 60:
                raise RuntimeError(f"stalled at {count} for a minute before {what}; {kernel_refusal()}")
        pause(0.2)
    raise RuntimeError(f"not every client reached {what} in {timeout} s")


def kernel_refusal():
    """What the kernel says it refused, from the limits this run meets first."""
    conntrack = Path("/proc/sys/net/netfilter")
    if (conntrack / "nf_conntrack_count").exists():
        count, limit = (int((conntrack / name).read_text()) for name in ("nf_conntrack_count", "nf_conntrack_max"))
        if count >= limit:
            return f"the connection tracking table is full (net.netfilter.nf_conntrack_max {limit})"
    low, high = Path("/proc/sys/net/ipv4/ip_local_port_range").read_text().split()
    return (f"no kernel limit found full; check dmesg, the local port range ({low}-{high}) and "
            f"the open-file limit ({resource.getrlimit(resource.RLIMIT_NOFILE)[1]})")


class RssSampler:
    """The servers' total RSS about once a second, with the phase it was in. Sampled from the
    main thread as it waits (`pause`): a sampling thread went unscheduled for minutes while a
    million connections opened."""

    def __init__(self, servers):
        self.servers, self.samples, self.phase, self.began, self.due = servers, [], "start", time.monotonic(), 0.0

    def sample_if_due(self):
        now = time.monotonic() - self.began
        if now >= self.due:
            total = sum(rss_kib(server.proc.pid) for server in self.servers)
            self.samples.append((now, total / 1024, self.phase))
            self.due = now + 1


SAMPLER = None


def pause(seconds):
    """Sleeps `seconds`, sampling RSS when a sample is due."""
    end = time.monotonic() + seconds
    while (left := end - time.monotonic()) > 0:
        if SAMPLER:
            SAMPLER.sample_if_due()
        time.sleep(min(0.2, left))


def write_plot(samples, out):
    with open(out / "rss.csv", "w") as csv:
        csv.write("seconds,total_rss_mb,phase\n")
        for seconds, megabytes, phase in samples:
            csv.write(f"{seconds:.1f},{megabytes:.1f},{phase}\n")
    if len(samples) < 2:
        return
    width, height, left, bottom = 720, 360, 70, 40
    top_mb = max(megabytes for _, megabytes, _ in samples) * 1.1 or 1
    end_s = samples[-1][0] or 1
    def x(seconds): return left + (width - left - 10) * seconds / end_s
    def y(megabytes): return height - bottom - (height - bottom - 10) * megabytes / top_mb
    points = " ".join(f"{x(s):.1f},{y(m):.1f}" for s, m, _ in samples)
    marks, previous = [], None
    for seconds, _, phase in samples:
        if phase != previous:
            marks.append(f'<line x1="{x(seconds):.1f}" y1="10" x2="{x(seconds):.1f}" y2="{height - bottom}" stroke="#bbb"/>'
                         f'<text x="{x(seconds) + 3:.1f}" y="22" font-size="11">{phase}</text>')
            previous = phase
    ticks = "".join(f'<text x="{left - 6}" y="{y(top_mb * i / 4) + 4:.1f}" font-size="11" text-anchor="end">'
                    f'{top_mb * i / 4:.0f}</text>' for i in range(5))
    (out / "rss.svg").write_text(
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" font-family="sans-serif">'
        f'<rect width="100%" height="100%" fill="white"/>{"".join(marks)}{ticks}'
        f'<polyline fill="none" stroke="#c33" stroke-width="2" points="{points}"/>'
        f'<text x="{left}" y="{height - 8}" font-size="12">seconds (0 to {end_s:.0f}); servers\' total RSS in MB</text>'
        f'</svg>\n')


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sessions", type=int, default=1_000_000)
    parser.add_argument("--rate", type=float, default=10_000, help="changes a second over all sessions")
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--ping-interval", type=float, default=None,
                        help="the servers' --ping-interval in seconds (default: theirs, 30)")
    parser.add_argument("--quiet-window", type=float, default=None,
                        help="seconds of pings alone (default: the ping interval and 5)")
    parser.add_argument("--per-process", type=int, default=None, help="sessions a server (default: its file limit's)")
    parser.add_argument("--keep-sysctls", action="store_true", help="raise no kernel limit (a small run needs none)")
    parser.add_argument("--track-connections", action="store_true",
                        help="leave loopback in connection tracking (by default the run takes it out with iptables)")
    parser.add_argument("--bin", type=Path, required=True)
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args()
    if args.quiet_window is None:
        args.quiet_window = (args.ping_interval or 30) + 5
    args.out.mkdir(parents=True, exist_ok=True)

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    global SAMPLER
    servers, clients, sampler, restore, untracked = [], [], None, {}, []
    result = 1
    try:
        restore, refused = ({}, []) if args.keep_sysctls else raise_sysctls()
        for line in refused:
            print(f"million: cannot raise {line}")
        if not args.track_connections and not args.keep_sysctls:
            untracked = untrack_loopback()
            print("million: loopback left out of connection tracking for the run" if untracked
                  else "million: loopback still tracked (iptables refused the raw-table rules)")
        # One server first: its start line says how many sessions a process may hold.
        servers.append(Server(args.bin / "rxlive", args.out, 0, args.ping_interval))
        per_process = min(servers[0].wait_ready(), hard - 100, args.per_process or hard)
        processes = math.ceil(args.sessions / per_process)
        print(f"million: {args.sessions} sessions, at most {per_process} a process (open-file limit {hard}), "
              f"{processes} servers and {processes} clients")
        for index in range(1, processes):
            servers.append(Server(args.bin / "rxlive", args.out, index, args.ping_interval))
        for server in servers[1:]:
            server.wait_ready()
        time.sleep(1)
        rss_start = {server.port: rss_kib(server.proc.pid) for server in servers}
        resources_start = {server.port: metric(server.port, "rxlive_rx_resources") for server in servers}
        sampler = SAMPLER = RssSampler(servers)

        sampler.phase = "open"
        shares = [args.sessions // processes + (1 if index < args.sessions % processes else 0) for index in range(processes)]
        opened_at = time.monotonic()
        clients = [Client(args.bin / "ws-bench", args.out, index, server.port, share, args.rate / processes, args.seconds)
                   for index, (server, share) in enumerate(zip(servers, shares))]
        try:
            open_sessions = lambda: sum(metric(server.port, "rxlive_sessions_open") or 0 for server in servers)
            ready_lines = wait_all(clients, "hold: ready", 900, "all its sessions open", progress=open_sessions)
        except RuntimeError as error:
            print(f"million: stopped at {open_sessions()} open sessions: {error}")
            raise
        open_s = time.monotonic() - opened_at
        opened = sum(int(re.search(r"ready (\d+)", line).group(1)) for line in ready_lines)
        failed = sum(int(re.search(r"failed (\d+)", line).group(1)) for line in ready_lines)
        for line in ready_lines:
            if "failed 0" not in line:
                print(f"million: {line}")
        pause(2)
        rss_open = {server.port: rss_kib(server.proc.pid) for server in servers}
        total_rss_mb = sum(rss_open.values()) / 1024
        bytes_per_session = sum(rss_open[port] - rss_start[port] for port in rss_open) * 1024 / max(opened, 1)

        sampler.phase = "pings"
        cpu_before = sum(cpu_seconds(server.proc.pid) for server in servers)
        client_cpu_before = sum(cpu_seconds(client.proc.pid) for client in clients)
        pause(args.quiet_window)
        ping_cpu_pct = 100 * (sum(cpu_seconds(server.proc.pid) for server in servers) - cpu_before) / args.quiet_window
        client_ping_cpu_pct = 100 * (sum(cpu_seconds(client.proc.pid) for client in clients) - client_cpu_before) / args.quiet_window
        # The clients share the machine: their answers to the pings load it as much as the servers' pings.
        print(f"million: pings alone for {args.quiet_window:.0f} s: the servers used {ping_cpu_pct:.1f} % of a core, "
              f"the clients {client_ping_cpu_pct:.1f} %")

        sampler.phase = "messages"
        machine_before = machine_cpu()
        for client in clients:
            client.signal("go")
        sent_lines = wait_all(clients, "hold: sent", args.seconds + 120, "the end of its sending")
        # A virtual machine's stolen time shows in the latencies: said beside them.
        busy_pct, steal_pct = machine_share(machine_before, machine_cpu())
        print(f"million: the machine during the messages: {busy_pct:.1f} % busy, {steal_pct:.1f} % stolen by the host")
        counts = {key: sum(int(re.search(key + r" (\d+)", line).group(1)) for line in sent_lines)
                  for key in ("sent", "replies", "wrong", "errors")}
        latencies = sorted(int(value) for client in clients for value in client.latencies.read_text().split())
        p99_ms = latencies[max(0, math.ceil(len(latencies) * 0.99) - 1)] / 1000 if latencies else float("nan")

        sampler.phase = "close"
        for client in clients:
            client.signal("close")
        deadline = time.monotonic() + 300
        while any(client.proc.poll() is None for client in clients) and time.monotonic() < deadline:
            pause(0.2)
        # A busy machine may still be closing a server's sessions when its client has ended;
        # each server gives its heap back a second after its last close.
        while time.monotonic() < deadline and any(metric(server.port, "rxlive_sessions_open") for server in servers):
            pause(0.5)
        pause(3)
        resources_after = sum((metric(server.port, "rxlive_rx_resources") or 0) - (resources_start[server.port] or 0)
                              for server in servers)
        rss_after = {server.port: rss_kib(server.proc.pid) for server in servers}
        sampler.phase = "closed"
        pause(2)
        grown = [port for port in rss_after if rss_after[port] > rss_start[port] * 1.1]

        print(f"million: {counts['sent']} changes sent over {args.seconds:.0f} s "
              f"({counts['sent'] / args.seconds:.0f}/s), {counts['replies']} right sums; "
              f"servers' RSS after the close: {sum(rss_after.values()) / 1024:.0f} MB against "
              f"{sum(rss_start.values()) / 1024:.0f} MB at start, {len(grown)} of {processes} above start + 10 %"
              + "".join(f"; :{port} {rss_start[port] / 1024:.1f} -> {rss_after[port] / 1024:.1f} MB" for port in grown))
        print(f"million: sessions={opened} processes={processes} open_s={open_s:.1f} "
              f"bytes_per_session={bytes_per_session:.0f} total_rss_mb={total_rss_mb:.0f} p99_ms={p99_ms:.1f} "
              f"wrong={counts['wrong']} errors={counts['errors'] + failed} ping_cpu_pct={ping_cpu_pct:.1f} "
              f"resources_after={resources_after}")
        result = 0
    except RuntimeError as error:
        print(f"million: {error}")
    finally:
        if sampler:
            write_plot(sampler.samples, args.out)
            print(f"million: RSS over time in {args.out}/rss.csv and rss.svg")
        for process in [client.proc for client in clients] + [server.proc for server in servers]:
            if process.poll() is None:
                process.send_signal(signal.SIGTERM)
        for process in [client.proc for client in clients] + [server.proc for server in servers]:
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        track_loopback_again(untracked)
        restore_sysctls(restore)
    return result


def restore_sysctls(restore, drain_seconds=180):
    """Puts the raised limits back. The connection-tracking table keeps the run's closed
    connections (TIME_WAIT) for two minutes: lowered below their count, it would drop every
    new connection until they expire, so its limit waits (bounded) for them to go."""
    count = Path("/proc/sys/net/netfilter/nf_conntrack_count")
    for path, value in restore.items():
        if path.name == "nf_conntrack_max" and count.exists():
            deadline = time.monotonic() + drain_seconds
            while int(count.read_text()) >= int(value) * 9 // 10 and time.monotonic() < deadline:
                time.sleep(1)
            if int(count.read_text()) >= int(value) * 9 // 10:
                print(f"million: net.netfilter.nf_conntrack_max left at its raised value: "
                      f"{int(count.read_text())} tracked connections have not expired")
                continue
        path.write_text(value)


if __name__ == "__main__":
    sys.exit(main())
