"""Several event loops in the real rxlive binary: the acceptor spreads sessions over the loops,
each loop serves its own (login timers included), /metrics sums over loops and shows each
one, and SIGTERM drains every loop."""
import json
import os
import signal

from raw_websocket import RawWebSocket
from support import http_get, start_rxlive


def metrics(port):
    status, body = http_get(port, "/metrics")
    assert status == 200
    values = {}
    for line in body.decode().splitlines():
        if line and not line.startswith("#"):
            name, value = line.rsplit(" ", 1)
            values[name] = int(float(value))  # gauges are written as 2.0
    return values


def test_two_loops_each_own_sessions_and_sigterm_drains_both():
    with start_rxlive(extra_args=["--loops", "2", "--login-service", "simulated", "--login-delay", "0.2"]) as server:
        sums = [RawWebSocket(server.port, "/ws/sum") for _ in range(6)]
        logins = [RawWebSocket(server.port, "/ws/login") for _ in range(4)]
        for ws in sums + logins:
            assert "ready" in ws.receive_json()
        for i, ws in enumerate(sums):
            for name in ("number1", "number2", "number3"):
                ws.send_json({"input": name, "value": str(i)})
            assert ws.receive_json() == {"output": "sum", "value": 3 * i}
        # The login delay is a MainScheduler timer: it must fire on the session's own loop.
        for ws in logins:
            ws.send_json({"input": "username", "value": "ada"})
            ws.send_json({"input": "password", "value": "secret"})
            ws.send_json({"input": "loginTapped"})
        for ws in logins:
            got = [ws.receive_json() for _ in range(2)]
            assert got == [{"output": "isLoginButtonEnabled", "value": True}, {"output": "loginResult", "value": True}]

        values = metrics(server.port)
        per_loop = [values['rxlive_loop_sessions_open{loop="0"}'], values['rxlive_loop_sessions_open{loop="1"}']]
        assert values["rxlive_loops"] == 2
        assert sum(per_loop) == values["rxlive_sessions_open"] == 10
        # Connections go to the loop with fewer open ones: at most the health checks of the
        # start-up wait can tilt the balance, so each loop owns a good share.
        assert min(per_loop) >= 3, per_loop
        assert values['rxlive_loop_sessions_total{loop="0"}'] + values['rxlive_loop_sessions_total{loop="1"}'] == 10

        server.proc.send_signal(signal.SIGTERM)
        for ws in sums + logins:
            assert ws.receive_close_code() == 1001
            ws.send_frame(0x8, (1001).to_bytes(2, "big"))
        assert server.proc.wait(15) == 0
        for ws in sums + logins:
            ws.close()


def test_the_default_is_one_loop_per_processor():
    with start_rxlive() as server:
        assert metrics(server.port)["rxlive_loops"] == len(os.sched_getaffinity(0))
