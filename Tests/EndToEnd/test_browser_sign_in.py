"""Signing in, in a real browser (headless Debian Chromium through Selenium) against the real
rxlive binary on a real SQLite file: a right login signs the browser in and it stays signed in
across reloads and tabs; log out in one tab signs the other out within a second; the cookie is
HttpOnly and SameSite=Strict; a logged-out cookie put back and an expired sign-in sign nobody in;
a hand-over code sent from another origin is refused."""
import subprocess
import sys
import time

import pytest

from support import free_port, http_get, start_rxlive
from test_scale_out import open_sessions
from test_accounts import rxlive_user
from test_browser import assert_no_console_errors, browser, element, wait_until  # noqa: F401 (fixture)

pytestmark = pytest.mark.slow  # headless Chromium




@pytest.fixture
def database(tmp_path):
    location = f"sqlite:{tmp_path / 'accounts.sqlite'}"
    assert rxlive_user("add", "ada", "--database", location, password="engine\n").returncode == 0
    return location


@pytest.fixture
def server(database):
    with start_rxlive(extra_args=["--database", database]) as process:
        yield process


def page(driver, server):
    driver.get(f"http://127.0.0.1:{server.port}/")
    for form in ("login", "sum"):
        wait_until(driver, f"the {form} session is connected",
                   lambda: element(driver, f"{form}-status").get_attribute("data-state") == "live")


def signed_in_as(driver):
    """The name the page shows as signed in, "" when the login form shows instead, None before it knows."""
    shown = element(driver, "signed-in").is_displayed()
    form = element(driver, "login-form").is_displayed()
    if shown == form:
        return None
    return element(driver, "signed-in-user").text if shown else ""


def log_in(driver, username="ada", password="engine"):
    wait_until(driver, "the login form shows", lambda: signed_in_as(driver) == "")
    element(driver, "username").send_keys(username)
    element(driver, "password").send_keys(password)
    wait_until(driver, "the button is enabled", lambda: element(driver, "login").is_enabled())
    element(driver, "login").click()
    wait_until(driver, f"{username} is signed in", lambda: signed_in_as(driver) == username)


def session_cookie(driver):
    cookies = [c for c in driver.get_cookies() if c["name"] == "rxlive-session"]
    assert len(cookies) == 1, driver.get_cookies()
    return cookies[0]


def test_a_login_signs_the_browser_in_across_reloads_and_tabs(server, browser):
    page(browser, server)
    log_in(browser)
    page(browser, server)  # the hand-over's form post brought the page back
    assert element(browser, "password").get_attribute("value") == "", "the password is not kept"

    cookie = session_cookie(browser)
    assert cookie["httpOnly"] is True and cookie["sameSite"] == "Strict" and cookie["path"] == "/"
    assert "rxlive-session" not in browser.execute_script("return document.cookie"), "not readable from JavaScript"

    browser.refresh()
    page(browser, server)
    wait_until(browser, "still signed in after a reload", lambda: signed_in_as(browser) == "ada")

    first = browser.current_window_handle
    browser.switch_to.new_window("tab")
    page(browser, server)
    wait_until(browser, "a second tab is signed in too", lambda: signed_in_as(browser) == "ada")
    second = browser.current_window_handle

    browser.switch_to.window(first)
    element(browser, "logout").click()
    wait_until(browser, "this tab shows the login form", lambda: signed_in_as(browser) == "")
    logged_out = time.monotonic()
    browser.switch_to.window(second)
    wait_until(browser, "the other tab is signed out within a second", lambda: signed_in_as(browser) == "", timeout=1.0,
               poll=0.02)
    assert time.monotonic() - logged_out < 1.0
    assert not [c for c in browser.get_cookies() if c["name"] == "rxlive-session"], "log out deletes the cookie"

    assert not element(browser, "greeting").is_displayed(), "the welcome card goes with the sign-in"
    # The logged-out cookie, put back, signs nobody in.
    browser.add_cookie({**cookie, "expiry": int(time.time()) + 3600})
    browser.refresh()
    page(browser, server)
    wait_until(browser, "the old cookie signs nobody in", lambda: signed_in_as(browser) == "")
    assert_no_console_errors(browser)


def test_the_welcome_card_greets_the_signed_in_user_and_goes_at_log_out(server, browser):
    page(browser, server)
    assert not element(browser, "greeting").is_displayed(), "nobody to greet before a login"
    log_in(browser)
    wait_until(browser, "the welcome view model greets ada", lambda: element(browser, "greeting").text == "Welcome, ada")
    wait_until(browser, "its timer ticks on the server", lambda: int(element(browser, "signed-in-for").text or 0) >= 1)
    element(browser, "wave").click()
    element(browser, "wave").click()
    wait_until(browser, "two waves are counted", lambda: element(browser, "waves").text == "2")
    element(browser, "logout").click()
    wait_until(browser, "the card is gone", lambda: not element(browser, "greeting").is_displayed())
    wait_until(browser, "the server holds the login and sum sessions only: the welcome's is closed, not reconnecting",
               lambda: open_sessions(server.port) == 2)
    time.sleep(1)
    assert open_sessions(server.port) == 2
    assert_no_console_errors(browser)


def test_an_expired_sign_in_shows_the_login_form(database, browser):
    with start_rxlive(extra_args=["--database", database, "--session-idle-timeout", "2"]) as server:
        page(browser, server)
        log_in(browser)
        time.sleep(2.5)
        browser.refresh()
        page(browser, server)
        wait_until(browser, "an idle sign-in has expired", lambda: signed_in_as(browser) == "")


def test_a_code_posted_from_another_origin_or_twice_is_refused(server, browser, tmp_path):
    page(browser, server)
    # Catch the code the login session receives, without posting it.
    browser.execute_script("""
        window.codes = [];
        HTMLFormElement.prototype.submit = function () { window.codes.push(this.elements.code.value); };""")
    element(browser, "username").send_keys("ada")
    element(browser, "password").send_keys("engine")
    wait_until(browser, "the button is enabled", lambda: element(browser, "login").is_enabled())
    element(browser, "login").click()
    wait_until(browser, "the code arrived", lambda: browser.execute_script("return window.codes.length") == 1)
    code = browser.execute_script("return window.codes[0]")

    # A page on another origin (a plain web server of the attacker's) posts the code to the server.
    (tmp_path / "attack.html").write_text(
        f'<form id="f" method="post" action="http://127.0.0.1:{server.port}/auth/session">'
        f'<input name="code" value="{code}"><input name="return" value="/"></form>'
        '<script>document.getElementById("f").submit()</script>')
    port = free_port()
    attacker = subprocess.Popen([sys.executable, "-m", "http.server", str(port), "--bind", "127.0.0.1", "--directory",
                                 str(tmp_path)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        wait_until(browser, "the attacker's server is up", lambda: http_get(port, "/attack.html")[0] == 200)
        browser.get(f"http://127.0.0.1:{port}/attack.html")
        wait_until(browser, "the forged post was answered", lambda: "page's own origin" in browser.page_source)
    finally:
        attacker.terminate()
        attacker.wait()
    page(browser, server)
    assert not [c for c in browser.get_cookies() if c["name"] == "rxlive-session"], "no cookie from another origin"
    wait_until(browser, "still signed out", lambda: signed_in_as(browser) == "")

    # The refusal did not use the code up: the page's own post signs in, once.
    def own_post():
        browser.execute_script("""
            const form = document.createElement('form');
            form.method = 'post'; form.action = '/auth/session';
            for (const [name, value] of [['code', arguments[0]], ['return', '/']]) {
                const input = document.createElement('input'); input.name = name; input.value = value; form.append(input);
            }
            document.body.append(form); HTMLFormElement.prototype.submit.call(form);""", code)
    own_post()
    page(browser, server)
    wait_until(browser, "the code signed in", lambda: signed_in_as(browser) == "ada")
    browser.delete_all_cookies()
    browser.refresh()
    page(browser, server)
    wait_until(browser, "signed out again", lambda: signed_in_as(browser) == "")
    own_post()
    page(browser, server)
    wait_until(browser, "a used code signs nobody in", lambda: signed_in_as(browser) == "")
    assert not [c for c in browser.get_cookies() if c["name"] == "rxlive-session"]
