"""End-to-end: signing in. A right login's hand-over code, redeemed for the session cookie;
upgrades with the cookie or a bearer token from `rxlive user token`; log out, log out
everywhere and the `user` commands ending live sessions; the refusals (a code used twice,
another origin, a revoked or expired token). The real rxlive binary on a real SQLite file;
raw WebSocket and HTTP clients, so each test sees every header and close code."""
import http.client
import json
import subprocess
import time

import pytest

import support
from raw_websocket import RawWebSocket, upgrade_status
from test_accounts import rxlive_user


def post(port, path, body=b"", origin=None, cookie=None, headers=()):
    """(status, headers as a list, body) of a POST on 127.0.0.1:port."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    all_headers = {"Content-Type": "text/plain"}
    if origin is not None:
        all_headers["Origin"] = origin
    if cookie is not None:
        all_headers["Cookie"] = cookie
    all_headers.update(dict(headers))
    connection.request("POST", path, body=body, headers=all_headers)
    response = connection.getresponse()
    result = (response.status, response.getheaders(), response.read())
    connection.close()
    return result


def set_cookie(headers):
    values = [value for name, value in headers if name.lower() == "set-cookie"]
    assert len(values) == 1, headers
    return values[0]


@pytest.fixture
def server(tmp_path):
    database = f"sqlite:{tmp_path / 'accounts.sqlite'}"
    for name, password in [("ada", "engine"), ("grace", "cobol")]:
        assert rxlive_user("add", name, "--database", database, password=f"{password}\n").returncode == 0
    with support.start_rxlive(extra_args=["--database", database]) as running:
        running.database = database
        running.origin = f"http://127.0.0.1:{running.port}"
        yield running


def log_in(port, username, password):
    """A login session: the hand-over code of a right password (None for a wrong one)."""
    ws = RawWebSocket(port, "/ws/login")
    try:
        ready = ws.receive_json()["ready"]
        assert "user" not in ready, "nobody is signed in yet"
        for message in [{"input": "username", "value": username}, {"input": "password", "value": password},
                        {"input": "loginTapped"}]:
            ws.send_json(message)
        code = None
        while True:
            message = ws.receive_json()
            if "signIn" in message:
                assert message["signIn"]["user"] == username
                code = message["signIn"]["code"]
            if message.get("output") == "loginResult":
                assert message["value"] is (code is not None), message
                return code
    finally:
        ws.close()


def sign_in(server, username="ada", password="engine"):
    """The cookie header value a browser would send after a login."""
    code = log_in(server.port, username, password)
    status, headers, body = post(server.port, "/auth/session", code.encode(), origin=server.origin)
    assert status == 200, body
    assert json.loads(body) == {"user": username}
    cookie = set_cookie(headers)
    return cookie.split(";", 1)[0]


def test_a_right_login_is_handed_over_for_a_strict_session_cookie(server):
    code = log_in(server.port, "ada", "engine")
    assert code and len(code) >= 22
    status, headers, body = post(server.port, "/auth/session", code.encode(), origin=server.origin)
    assert status == 200 and json.loads(body) == {"user": "ada"}
    cookie = set_cookie(headers)
    attributes = [part.strip() for part in cookie.split(";")]
    name, token = attributes[0].split("=", 1)
    assert name == "rxlive-session", "plain HTTP: no __Host- prefix, which needs Secure"
    assert len(token) >= 43, "256 random bits"
    assert {"Path=/", "HttpOnly", "SameSite=Strict"} <= set(attributes), attributes
    assert "Secure" not in attributes, "a plain-HTTP page could not store a Secure cookie"
    assert any(a.startswith("Max-Age=") and int(a[8:]) > 0 for a in attributes)
    assert ("Cache-Control", "no-store") in headers

    ws = RawWebSocket(server.port, "/ws/sum", headers=[f"Cookie: other=1; {name}={token}"])
    assert ws.receive_json()["ready"]["user"] == "ada"
    ws.close()
    assert log_in(server.port, "ada", "wrong") is None, "a wrong password gets no code"


def test_a_code_works_once_and_only_from_the_page_s_own_origin(server):
    code = log_in(server.port, "ada", "engine")
    for origin in ["http://evil.example", "null", None]:
        status, headers, _ = post(server.port, "/auth/session", code.encode(), origin=origin)
        assert status == 403, origin
        assert not [h for h in headers if h[0].lower() == "set-cookie"]
    # A browser sends `Origin: null` on a form post under Referrer-Policy: no-referrer; then only
    # its Fetch Metadata, which no page can set, says whether the post is the page's own.
    for site in ["cross-site", "same-site", "none"]:
        status, _, _ = post(server.port, "/auth/session", code.encode(), origin="null", headers=[("Sec-Fetch-Site", site)])
        assert status == 403, site
    status, _, _ = post(server.port, "/auth/session", code.encode(), origin="null", headers=[("Sec-Fetch-Site", "same-origin")])
    assert status == 200, "the refusals did not use the code up; a same-origin form post is the page's own"
    status, headers, body = post(server.port, "/auth/session", code.encode(), origin=server.origin)
    assert status == 403 and b"used" in body, "a code is redeemed once"
    assert post(server.port, "/auth/session", b"not a code", origin=server.origin)[0] == 403
    status, headers, _ = support_get(server.port, "/auth/session")
    assert status == 405 and ("Allow", "POST") in headers


def support_get(port, path):
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    connection.request("GET", path)
    response = connection.getresponse()
    result = (response.status, response.getheaders(), response.read())
    connection.close()
    return result


def test_every_login_makes_a_new_token(server):
    first = sign_in(server)
    second = sign_in(server)
    assert first != second
    sessions = rxlive_user("sessions", "ada", "--database", server.database).stdout.splitlines()
    assert len(sessions) == 2
    assert all(first.split("=", 1)[1] not in line and second.split("=", 1)[1] not in line for line in sessions)


def test_websocat_with_a_bearer_token_is_signed_in_until_the_user_is_removed(server):
    token = rxlive_user("token", "ada", "--database", server.database).stdout.strip()
    numbers = "".join(json.dumps({"input": f"number{i}", "value": str(i)}) + "\n" for i in (1, 2, 3))
    run = lambda: subprocess.run([str(support.tool("websocat")), f"--header=Authorization: Bearer {token}",
                                  f"ws://127.0.0.1:{server.port}/ws/sum"], input=numbers, capture_output=True,
                                 text=True, timeout=30)
    answered = run()
    lines = [json.loads(line) for line in answered.stdout.splitlines()]
    assert lines[0]["ready"]["user"] == "ada" and lines[-1] == {"output": "sum", "value": 6}, answered
    assert rxlive_user("remove", "ada", "--database", server.database).returncode == 0
    deadline = time.monotonic() + 5
    while "401" not in (refused := run()).stderr:
        assert time.monotonic() < deadline, refused
    assert refused.returncode != 0 and refused.stdout == ""


def test_a_bearer_token_from_the_command_line_signs_a_script_in(server):
    made = rxlive_user("token", "ada", "--database", server.database)
    assert made.returncode == 0, made.stderr
    token = made.stdout.strip()
    ws = RawWebSocket(server.port, "/ws/sum", headers=[f"Authorization: Bearer {token}"])
    ready = ws.receive_json()["ready"]
    assert ready["user"] == "ada" and ready["viewModel"] == "sum"
    for index, value in enumerate(["2", "3", "4"], 1):
        ws.send_json({"input": f"number{index}", "value": value})
    assert ws.receive_json() == {"output": "sum", "value": 9}
    ws.close()

    assert rxlive_user("remove", "ada", "--database", server.database).returncode == 0
    # The server learns of the removal from the store's log within a poll.
    deadline = time.monotonic() + 5
    while upgrade_status(server.port, "/ws/sum", [f"Authorization: Bearer {token}"])[0] == 101:
        assert time.monotonic() < deadline, "a removed user's token still signs in"
        time.sleep(0.1)
    status, head = upgrade_status(server.port, "/ws/sum", [f"Authorization: Bearer {token}"])
    assert status == 401 and 'WWW-Authenticate: Bearer error="invalid_token"' in head


def test_an_anonymous_upgrade_stays_anonymous_and_a_stale_cookie_is_ignored(server):
    ws = RawWebSocket(server.port, "/ws/sum")
    assert "user" not in ws.receive_json()["ready"]
    ws.close()
    ws = RawWebSocket(server.port, "/ws/sum", headers=["Cookie: rxlive-session=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"])
    assert "user" not in ws.receive_json()["ready"], "an unknown cookie: the page shows the login form"
    ws.close()
    assert upgrade_status(server.port, "/ws/sum", ["Authorization: Bearer nonsense"])[0] == 401


def test_a_credential_sent_twice_signs_nobody_in(server):
    """Two Authorization fields, or the session cookie in two Cookie fields, could mean two
    things: the upgrade reads no credential from them and stays anonymous."""
    token = rxlive_user("token", "ada", "--database", server.database).stdout.strip()
    for headers in ([f"Authorization: Bearer {token}", f"authorization: Bearer {token}"],
                    [f"Cookie: rxlive-session={token}", f"cookie: rxlive-session={token}"]):
        ws = RawWebSocket(server.port, "/ws/sum", headers=headers)
        assert "user" not in ws.receive_json()["ready"], headers
        ws.close()
    ws = RawWebSocket(server.port, "/ws/sum", headers=[f"AUTHORIZATION: Bearer {token}"])
    assert ws.receive_json()["ready"]["user"] == "ada", "sent once, in any case, it signs in"
    ws.close()


def test_log_out_ends_the_live_sessions_of_that_sign_in_within_a_second(server):
    cookie = sign_in(server)
    other = sign_in(server, "grace", "cobol")
    mine = [RawWebSocket(server.port, path, headers=[f"Cookie: {cookie}"]) for path in ["/ws/sum", "/ws/login"]]
    theirs = RawWebSocket(server.port, "/ws/sum", headers=[f"Cookie: {other}"])
    for ws in mine + [theirs]:
        ws.receive_json()
    assert post(server.port, "/auth/logout", origin="http://evil.example", cookie=cookie)[0] == 403
    started = time.monotonic()
    status, headers, body = post(server.port, "/auth/logout", origin=server.origin, cookie=cookie)
    assert status == 200 and json.loads(body) == {"signedOut": True}
    assert "Max-Age=0" in set_cookie(headers)
    for ws in mine:
        assert ws.receive_json() == {"signedOut": {"reason": "logged out"}}
        assert ws.receive_close_code() == 4001
        ws.close()
    assert time.monotonic() - started < 1.0
    for index in (1, 2, 3):
        theirs.send_json({"input": f"number{index}", "value": "5"})
    assert theirs.receive_json() == {"output": "sum", "value": 15}, "another user's session goes on"
    theirs.close()
    # The logged-out cookie, put back, signs nobody in.
    ws = RawWebSocket(server.port, "/ws/sum", headers=[f"Cookie: {cookie}"])
    assert "user" not in ws.receive_json()["ready"]
    ws.close()


def test_log_out_everywhere_and_the_revoke_command_end_every_session_of_the_user(server):
    first, second = sign_in(server), sign_in(server)
    sockets = [RawWebSocket(server.port, "/ws/sum", headers=[f"Cookie: {c}"]) for c in (first, second)]
    for ws in sockets:
        assert ws.receive_json()["ready"]["user"] == "ada"
    status, _, _ = post(server.port, "/auth/logout-everywhere", origin=server.origin, cookie=first)
    assert status == 200
    for ws in sockets:
        assert "signedOut" in ws.receive_json()
        assert ws.receive_close_code() == 4001
        ws.close()
    assert rxlive_user("sessions", "ada", "--database", server.database).stdout == ""

    third = sign_in(server)
    ws = RawWebSocket(server.port, "/ws/sum", headers=[f"Cookie: {third}"])
    ws.receive_json()
    revoked = rxlive_user("revoke", "ada", "--all", "--database", server.database)
    assert revoked.stdout == "ended 1 session of ada\n"
    assert "signedOut" in ws.receive_json(), "another process's revocation reaches the live session"
    assert ws.receive_close_code() == 4001
    ws.close()


def test_an_expired_sign_in_is_refused(tmp_path):
    database = f"sqlite:{tmp_path / 'accounts.sqlite'}"
    assert rxlive_user("add", "ada", "--database", database, password="engine\n").returncode == 0
    with support.start_rxlive(extra_args=["--database", database, "--session-idle-timeout", "1"]) as server:
        server.origin = f"http://127.0.0.1:{server.port}"
        cookie = sign_in(server)
        ws = RawWebSocket(server.port, "/ws/sum", headers=[f"Cookie: {cookie}"])
        assert ws.receive_json()["ready"]["user"] == "ada"
        ws.close()
        time.sleep(1.5)
        ws = RawWebSocket(server.port, "/ws/sum", headers=[f"Cookie: {cookie}"])
        assert "user" not in ws.receive_json()["ready"], "idle past --session-idle-timeout"
        ws.close()
    # A live session ends when its sign-in reaches its lifetime, however busy it is.
    with support.start_rxlive(extra_args=["--database", database, "--session-lifetime", "2"]) as server:
        server.origin = f"http://127.0.0.1:{server.port}"
        ws = RawWebSocket(server.port, "/ws/sum", headers=[f"Cookie: {sign_in(server)}"])
        assert ws.receive_json()["ready"]["user"] == "ada"
        started = time.monotonic()
        assert ws.receive_json() == {"signedOut": {"reason": "expired"}}
        assert ws.receive_close_code() == 4001
        assert time.monotonic() - started < 3.5
        ws.close()
    token = rxlive_user("token", "ada", "--expires", "1", "--database", database).stdout.strip()
    with support.start_rxlive(extra_args=["--database", database]) as server:
        assert upgrade_status(server.port, "/ws/sum", [f"Authorization: Bearer {token}"])[0] == 101
        time.sleep(1.5)
        assert upgrade_status(server.port, "/ws/sum", [f"Authorization: Bearer {token}"])[0] == 401


def test_the_page_s_form_post_comes_back_to_the_page_signed_in_or_out(server):
    form = {"Content-Type": "application/x-www-form-urlencoded"}
    code = log_in(server.port, "ada", "engine")
    status, headers, _ = post(server.port, "/auth/session", f"code={code}&return=%2Fsub%2Fpage%3Fx%3D1".encode(),
                              origin=server.origin, headers=form)
    assert status == 303 and ("Location", "/sub/page?x=1") in headers
    cookie = set_cookie(headers).split(";", 1)[0]
    assert cookie.startswith("rxlive-session=")
    ws = RawWebSocket(server.port, "/ws/sum", headers=[f"Cookie: {cookie}"])
    assert ws.receive_json()["ready"]["user"] == "ada"
    ws.close()
    # A used code sets no cookie and goes back all the same; a return to another host goes home.
    for target in ["%2F%2Fevil.example%2F", "https%3A%2F%2Fevil.example%2F", "%2F%5Cevil.example"]:
        status, headers, _ = post(server.port, "/auth/session", f"code={code}&return={target}".encode(),
                                  origin=server.origin, headers=form)
        assert status == 303 and ("Location", "/") in headers, target
        assert not [h for h in headers if h[0].lower() == "set-cookie"]
    status, headers, _ = post(server.port, "/auth/logout", b"return=%2F", origin=server.origin, cookie=cookie, headers=form)
    assert status == 303 and ("Location", "/") in headers and "Max-Age=0" in set_cookie(headers)
    ws = RawWebSocket(server.port, "/ws/sum", headers=[f"Cookie: {cookie}"])
    assert "user" not in ws.receive_json()["ready"]
    ws.close()
