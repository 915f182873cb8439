"""The headers that confine the page in a browser (docs/SECURITY.md), from the real rxlive binary:
every one on the page and the dashboard over plain HTTP and over TLS, Strict-Transport-Security
only over TLS or from a trusted proxy that says it used HTTPS; then headless Chromium runs both
forms and the dashboard under the policy with no violation, and a page of another origin cannot
frame the login form."""
import http.client
import http.server
import re
import socket
import ssl
import threading

import pytest
from selenium.webdriver.common.by import By

from support import REPO, ServerProcess, free_port, start_rxlive
from test_browser import ADMIN_TOKEN, browser, element, open_dashboard, open_page, text_of, wait_until  # noqa: F401
from test_tls import Certificates

TWO_YEARS = 63072000
HTML_PAGES = ("/", "/dashboard/")


def expected_policy(websocket_origin):
    return ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
            f"connect-src {websocket_origin}; base-uri 'none'; form-action 'self'; frame-ancestors 'none'")


def head_fields(connection, path, headers=None):
    """The response's header fields (names lowercased) for a GET of `path`."""
    connection.request("GET", path, headers=headers or {})
    response = connection.getresponse()
    response.read()
    assert response.status == 200, (path, response.status)
    return {name.lower(): value for name, value in response.getheaders()}


def assert_page_headers(fields, websocket_origin):
    assert fields["content-security-policy"] == expected_policy(websocket_origin)
    assert fields["referrer-policy"] == "no-referrer"
    assert fields["cross-origin-opener-policy"] == "same-origin"
    assert fields["x-frame-options"] == "DENY"
    assert fields["x-content-type-options"] == "nosniff"


def test_every_header_over_plain_http_and_no_hsts_even_when_a_stranger_says_https():
    with start_rxlive(extra_args=["--admin-token", ADMIN_TOKEN]) as server:
        connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=5)
        for path in HTML_PAGES:
            fields = head_fields(connection, path)
            assert_page_headers(fields, f"ws://127.0.0.1:{server.port}")
            assert "strict-transport-security" not in fields
            # A peer that is no trusted proxy cannot earn HSTS by saying it used HTTPS.
            claimed = head_fields(connection, path, {"X-Forwarded-Proto": "https"})
            assert "strict-transport-security" not in claimed
            assert f"connect-src ws://127.0.0.1:{server.port};" in claimed["content-security-policy"]
        # Scripts and styles are not pages: no policy of their own.
        assert "content-security-policy" not in head_fields(connection, "/app.js")


def test_every_header_over_tls_with_hsts_and_its_max_age_a_setting(tmp_path):
    certs = Certificates(tmp_path)
    certs.issue("headers")
    for extra, max_age in (([], TWO_YEARS), (["--hsts-max-age", "86400"], 86400)):
        port = free_port()
        args = ["--host", "127.0.0.1", "--port", str(port), "--public", str(REPO / "Public"),
                "--tls-cert", str(certs.cert), "--tls-key", str(certs.key), "--admin-token", ADMIN_TOKEN, *extra]
        with ServerProcess("rxlive", args, port, ready_path=None):
            context = ssl.create_default_context(cafile=str(certs.ca))
            connection = http.client.HTTPSConnection("localhost", port, timeout=5, context=context)
            for path in HTML_PAGES:
                fields = head_fields(connection, path)
                assert_page_headers(fields, f"wss://localhost:{port}")
                assert fields["strict-transport-security"] == f"max-age={max_age}"
            # HSTS is on every response over TLS, not only on pages.
            assert head_fields(connection, "/healthz")["strict-transport-security"] == f"max-age={max_age}"


def test_a_trusted_proxy_that_says_https_gets_hsts_and_a_wss_policy():
    with start_rxlive(extra_args=["--trusted-proxy", "127.0.0.1"]) as server:
        connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=5)
        fields = head_fields(connection, "/", {"X-Forwarded-Proto": "https"})
        assert fields["strict-transport-security"] == f"max-age={TWO_YEARS}"
        assert_page_headers(fields, f"wss://127.0.0.1:{server.port}")
        # The proxy's own entry is the last one: a client's "https" before it counts for nothing.
        plain = head_fields(connection, "/", {"X-Forwarded-Proto": "https, http"})
        assert "strict-transport-security" not in plain
        assert_page_headers(plain, f"ws://127.0.0.1:{server.port}")


INLINE = re.compile(r"<script(?![^>]*\bsrc=)[^>]*>|<style\b|\sstyle=|\son[a-z]+=|javascript:", re.I)


def test_the_pages_the_example_and_the_test_pages_have_no_inline_script_or_style():
    folders = [REPO / "Public", REPO / "Examples" / "SignUp" / "Public", REPO / "Tests" / "EndToEnd" / "pages"]
    pages = sorted(page for folder in folders for page in folder.rglob("*.html"))
    assert pages
    for page in pages:
        assert not INLINE.findall(page.read_text()), f"{page}: inline script or style, which the policy refuses"


# ---- in Chromium --------------------------------------------------------------------------

CSP_REPORT = re.compile(r"Content Security Policy|Refused to", re.I)


class OtherOrigin:
    """A page server on another port of 127.0.0.1 (so another origin), sending no policy of its own."""

    def __init__(self, pages):
        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self):
                body = pages.get(self.path, "").encode()
                self.send_response(200 if self.path in pages else 404)
                self.send_header("Content-Type", "text/html; charset=utf-8")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args):
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.port = self.server.server_address[1]
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.server.shutdown()
        self.server.server_close()


def framed_login_form(driver, frame_id):
    """Whether the frame `frame_id` of the current page shows a login form."""
    driver.switch_to.frame(driver.find_element(By.ID, frame_id))
    try:
        return bool(driver.find_elements(By.ID, "login-form"))
    finally:
        driver.switch_to.default_content()


def wait_for_log(driver, what, needle):
    """Waits until a browser-log entry since the last read mentions `needle`."""
    seen = []

    def logged():
        seen.extend(driver.get_log("browser"))
        return any(needle in entry["message"] for entry in seen)
    wait_until(driver, what, logged)


def test_chromium_runs_the_page_and_dashboard_under_the_policy_and_no_other_origin_frames_them(browser):  # noqa: F811
    args = ["--login-service", "simulated", "--login-delay", "0.2", "--admin-token", ADMIN_TOKEN]
    with start_rxlive(extra_args=args) as server:
        open_page(browser, server)
        element(browser, "username").send_keys("ada")
        element(browser, "password").send_keys("secret")
        wait_until(browser, "the button enables", lambda: element(browser, "login").is_enabled())
        element(browser, "login").click()
        wait_until(browser, "the login succeeds", lambda: text_of(browser, "login-result") == "Login Successful")
        for field, keys in (("number1", "12"), ("number2", "30"), ("number3", "0")):
            element(browser, field).send_keys(keys)
        wait_until(browser, "the sum is 42", lambda: text_of(browser, "sum") == "42")

        page = browser.current_window_handle
        browser.switch_to.new_window("tab")  # the page stays open, its sessions live
        open_dashboard(browser, server)
        wait_until(browser, "the dashboard lists the page's sessions",
                   lambda: browser.find_elements(By.CSS_SELECTOR, '#sessions tr[data-view-model="sum"]'))
        wait_until(browser, "a chart has points",
                   lambda: int(element(browser, "chart-sessions").get_attribute("data-points")) >= 1)
        reports = [entry for entry in browser.get_log("browser") if CSP_REPORT.search(entry["message"])]
        assert not reports, f"the policy refused something the page or the dashboard needs: {reports}"
        severe = [entry for entry in browser.get_log("browser") if entry["level"] == "SEVERE"]
        assert not severe, severe

        victim = f"http://127.0.0.1:{server.port}/"
        # The framer is on localhost; both frames come from other origins (127.0.0.1, other ports).
        # The control frame, a page with no policy, shows its form: the check can see a framed form.
        pages = {"/plain.html": '<form id="login-form"></form>'}
        with OtherOrigin(pages) as other:
            pages["/framer.html"] = (f'<iframe id="victim" src="{victim}"></iframe>'
                                     f'<iframe id="control" src="http://127.0.0.1:{other.port}/plain.html"></iframe>')
            browser.get(f"http://localhost:{other.port}/framer.html")
            wait_until(browser, "the control frame shows its form", lambda: framed_login_form(browser, "control"))
            wait_for_log(browser, "Chromium reports the refused frame", "frame-ancestors")
            assert not framed_login_form(browser, "victim"), "another origin framed the login form"
