"""Signing in, in a real browser (headless Debian Chromium through Selenium) against the real
rxlive binary on a real SQLite file: a right login signs the browser in and it stays signed in
across reloads and tabs; log out in one tab signs the other out within a second; the cookie is
HttpOnly and SameSite=Strict; a logged-out cookie put back and an expired sign-in sign nobody in;
a hand-over code sent from another origin is refused."""
import time

import pytest

from support import start_rxlive
from test_scale_out import open_sessions
from test_accounts import rxlive_user
from test_browser import assert_no_console_errors, browser, element, wait_until  # noqa: F401 (fixture)

WAIT = 20


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
    browser.execute_script("""
        window.readyUsers = {};
        document.addEventListener('rx:ready', (e) => { window.readyUsers[e.detail.ready.viewModel] = e.detail.ready.user ?? null; });""")
    log_in(browser)
    assert element(browser, "password").get_attribute("value") == "", "the password is not kept"
    wait_until(browser, "every session of the page reconnected signed in",
               lambda: browser.execute_script("return window.readyUsers") == {"login": "ada", "sum": "ada", "welcome": "ada"})

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


def test_a_code_sent_from_another_origin_is_refused(server, database, browser):
    # A second server is another origin; its page tries to redeem a code on the first one.
    page(browser, server)
    # Catch the code the login session receives, without redeeming it.
    browser.execute_script("""
        window.codes = [];
        const original = window.fetch;
        window.fetch = (url, options) => {
            if (String(url).endsWith('/auth/session')) { window.codes.push(options.body); return new Promise(() => {}); }
            return original(url, options);
        };""")
    element(browser, "username").send_keys("ada")
    element(browser, "password").send_keys("engine")
    wait_until(browser, "the button is enabled", lambda: element(browser, "login").is_enabled())
    element(browser, "login").click()
    wait_until(browser, "the code arrived", lambda: browser.execute_script("return window.codes.length") == 1)
    code = browser.execute_script("return window.codes[0]")
    with start_rxlive(extra_args=["--login-service", "simulated"]) as other:
        browser.get(f"http://127.0.0.1:{other.port}/")
        result = browser.execute_script("""
            return fetch(arguments[0], {method: 'POST', body: arguments[1], credentials: 'include'})
                .then((r) => 'answered ' + r.status, (e) => 'refused');""", f"http://127.0.0.1:{server.port}/auth/session", code)
        assert result == "refused", "the browser may not read a cross-origin answer"
    # The cross-origin attempt did not use the code up, and set no cookie: the page's own origin still can.
    page(browser, server)
    assert not [c for c in browser.get_cookies() if c["name"] == "rxlive-session"]
    status = browser.execute_script("""
        return fetch('/auth/session', {method: 'POST', body: arguments[0]}).then((r) => r.status);""", code)
    assert status == 200
    second = browser.execute_script("""
        return fetch('/auth/session', {method: 'POST', body: arguments[0]}).then((r) => r.status);""", code)
    assert second == 403, "a code is redeemed once"
