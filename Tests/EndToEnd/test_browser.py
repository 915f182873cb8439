"""The page in a real browser: headless Debian Chromium, driven by Selenium, against the real
rxlive binary. It checks the login and sum forms behave like the seed's screens, that the page
reconnects by itself after a server restart, and that no JavaScript error reaches the console."""
import os
import re

import pytest
from selenium import webdriver
from selenium.common.exceptions import TimeoutException, WebDriverException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import WebDriverWait

from support import ARTIFACTS, start_rxlive

CHROMIUM = os.environ.get("RXLIVE_CHROMIUM", "/usr/bin/chromium")
CHROMEDRIVER = os.environ.get("RXLIVE_CHROMEDRIVER", "/usr/bin/chromedriver")
LOGIN_DELAY = 0.5
# Generous: CI machines are slow, and a reconnect may wait out a few backoff steps (max 5 s each).
WAIT = 20
SCREENSHOT = ARTIFACTS / "browser-page.png"


@pytest.fixture
def server():
    with start_rxlive(extra_args=["--login-delay", str(LOGIN_DELAY)]) as process:
        yield process


@pytest.fixture
def browser():
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for arg in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1280,900"):
        options.add_argument(arg)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    try:
        # An explicit driver path: Selenium never goes to the network to fetch one.
        driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    except (WebDriverException, OSError) as error:
        pytest.fail(f"Chromium could not start ({CHROMIUM} via {CHROMEDRIVER}); the browser test is "
                    f"required: install Debian's chromium and chromium-driver. Cause: {error}")
    try:
        yield driver
    finally:
        driver.quit()


def wait_until(driver, what, condition, timeout=WAIT, poll=0.05):
    try:
        return WebDriverWait(driver, timeout, poll_frequency=poll).until(lambda d: condition())
    except TimeoutException:
        pytest.fail(f"timed out after {timeout}s waiting until {what}")


def element(driver, element_id):
    return driver.find_element(By.ID, element_id)


def text_of(driver, element_id):
    return element(driver, element_id).text


def is_enabled(driver, element_id):
    return element(driver, element_id).is_enabled()


def open_page(driver, server):
    driver.get(f"http://127.0.0.1:{server.port}/")
    for form in ("login", "sum"):
        wait_until(driver, f"the {form} session is connected",
                   lambda: element(driver, f"{form}-status").get_attribute("data-state") == "live")


def console_errors(driver, allowed=None):
    """SEVERE browser-log entries since the last call, except those matching `allowed`."""
    return [entry for entry in driver.get_log("browser")
            if entry["level"] == "SEVERE" and not (allowed and allowed.search(entry["message"]))]


def assert_no_console_errors(driver, allowed=None):
    errors = console_errors(driver, allowed)
    assert not errors, f"JavaScript console errors: {errors}"


def record_login_result(driver):
    """Record every text the result label shows, with the time and whether it is visible, so a
    short pending state cannot slip between two polls."""
    driver.execute_script("""
        const label = document.getElementById('login-result');
        window.loginResultHistory = [];
        new MutationObserver(() => window.loginResultHistory.push({
            text: label.textContent, state: label.dataset.state, at: performance.now(),
            visible: label.offsetHeight > 0 && getComputedStyle(label).visibility === 'visible',
        })).observe(label, {childList: true, characterData: true, subtree: true});
    """)


def login_result_history(driver):
    return driver.execute_script("return window.loginResultHistory")


def test_login_button_follows_both_fields_and_a_tap_shows_pending_then_success(server, browser):
    open_page(browser, server)
    wait_until(browser, "the server's first isLoginButtonEnabled arrived",
               lambda: not is_enabled(browser, "login"))

    element(browser, "username").send_keys("alice")
    assert not is_enabled(browser, "login"), "enabled with only a username"
    element(browser, "password").send_keys("secret")
    wait_until(browser, "both fields filled enable the button", lambda: is_enabled(browser, "login"))

    element(browser, "username").send_keys(Keys.BACKSPACE * len("alice"))
    wait_until(browser, "an empty username disables the button", lambda: not is_enabled(browser, "login"))
    element(browser, "username").send_keys("alice")
    wait_until(browser, "the button enables again", lambda: is_enabled(browser, "login"))

    record_login_result(browser)
    element(browser, "login").click()
    wait_until(browser, "the login answer arrives",
               lambda: text_of(browser, "login-result") == "Login Successful")
    history = login_result_history(browser)
    texts = [entry["text"] for entry in history]
    assert texts == ["Logging in…", "Login Successful"], texts
    pending, success = history
    assert pending["state"] == "pending" and pending["visible"], pending
    # The answer waits for the server's login delay, so the pending state was on screen that long.
    assert success["at"] - pending["at"] >= LOGIN_DELAY * 1000 * 0.8, history
    assert element(browser, "login-result").get_attribute("data-state") == "success"
    assert_no_console_errors(browser)


def test_a_tap_that_races_a_cleared_field_shows_login_failed(server, browser):
    """The disabled button blocks a tap with invalid credentials, but a user who clears the
    password and presses Enter before the server's answer arrives still sends one: the server
    answers false at once, and the page shows the seed's "Login Failed"."""
    open_page(browser, server)
    element(browser, "username").send_keys("alice")
    element(browser, "password").send_keys("secret")
    wait_until(browser, "the button enables", lambda: is_enabled(browser, "login"))

    # One script, so the page cannot hear the server's `false` between the edit and the Enter.
    browser.execute_script("""
        const password = document.getElementById('password');
        password.value = '';
        password.dispatchEvent(new Event('input', {bubbles: true}));
        document.getElementById('login-form').requestSubmit();
    """)
    wait_until(browser, "the refused login answers",
               lambda: text_of(browser, "login-result") == "Login Failed")
    assert element(browser, "login-result").get_attribute("data-state") == "failure"
    wait_until(browser, "the button disables", lambda: not is_enabled(browser, "login"))
    assert_no_console_errors(browser)


def test_sum_follows_every_keystroke_and_counts_non_numbers_as_zero(server, browser):
    open_page(browser, server)
    wait_until(browser, "the first sum of three empty fields", lambda: text_of(browser, "sum") == "0")

    keystrokes = [("number1", "1", "1"), ("number1", "2", "12"), ("number2", "3", "15"),
                  ("number3", "7", "22"), ("number2", "x", "19"),  # "3x" is not an integer: 0
                  ("number3", "0", "82"), ("number2", Keys.BACKSPACE, "85")]
    for field, key, expected in keystrokes:
        element(browser, field).send_keys(key)
        wait_until(browser, f"typing {key!r} into {field} shows the sum {expected}",
                   lambda: text_of(browser, "sum") == expected)

    element(browser, "number1").send_keys("abc")
    wait_until(browser, "12abc counts as 0", lambda: text_of(browser, "sum") == "73")
    assert element(browser, "number1").get_attribute("value") == "12abc", "the field keeps what was typed"
    assert_no_console_errors(browser)


def test_the_page_reconnects_after_a_server_restart_without_retyping(server, browser):
    open_page(browser, server)
    element(browser, "username").send_keys("alice")
    element(browser, "password").send_keys("secret")
    for field, value in (("number1", "4"), ("number2", "5"), ("number3", "z")):
        element(browser, field).send_keys(value)
    wait_until(browser, "the sum is 9", lambda: text_of(browser, "sum") == "9")
    wait_until(browser, "the button enables", lambda: is_enabled(browser, "login"))
    assert_no_console_errors(browser)

    port = server.port
    server.stop()
    for form in ("login", "sum"):
        wait_until(browser, f"the {form} form shows it is disconnected",
                   lambda: element(browser, f"{form}-status").get_attribute("data-state") == "offline")
    assert not is_enabled(browser, "login"), "no tap can be sent without a session"
    assert element(browser, "sum").get_attribute("data-stale") == "true"

    with start_rxlive(port=port, extra_args=["--login-delay", str(LOGIN_DELAY)]):
        for form in ("login", "sum"):
            wait_until(browser, f"the {form} form reconnects by itself",
                       lambda: element(browser, f"{form}-status").get_attribute("data-state") == "live")
        wait_until(browser, "the new session sends the sum of the kept values",
                   lambda: text_of(browser, "sum") == "9"
                   and element(browser, "sum").get_attribute("data-stale") == "false")
        wait_until(browser, "the new session enables the button", lambda: is_enabled(browser, "login"))
        assert [element(browser, f).get_attribute("value")
                for f in ("username", "password", "number1", "number2", "number3")] == \
            ["alice", "secret", "4", "5", "z"]

        element(browser, "login").click()
        wait_until(browser, "a login on the new session succeeds",
                   lambda: text_of(browser, "login-result") == "Login Successful")

        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        assert browser.save_screenshot(str(SCREENSHOT)), "the screenshot was not written"
        assert SCREENSHOT.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"

    # While the server was down the browser logs each refused reconnect; nothing else may appear.
    refused = re.compile(rf"WebSocket connection to 'ws://127\.0\.0\.1:{port}/ws/(login|sum)' failed")
    assert_no_console_errors(browser, allowed=refused)


def test_chromium_negotiates_permessage_deflate_and_reads_compressed_messages(server, browser):
    # Chromium offers "permessage-deflate; client_max_window_bits" on every WebSocket; the
    # page's own sockets use it too, so every other test here runs compressed.
    open_page(browser, server)
    browser.set_script_timeout(WAIT)
    result = browser.execute_async_script("""
        const done = arguments[arguments.length - 1];
        const ws = new WebSocket(`ws://${location.host}/ws/sum`);
        ws.onmessage = (event) => { done({extensions: ws.extensions, ready: JSON.parse(event.data)}); ws.close(); };
        ws.onerror = () => done({error: true});
    """)
    assert result.get("extensions") == "permessage-deflate; client_no_context_takeover"
    # The ready message is over the threshold, so it came compressed and Chromium inflated it.
    assert result["ready"]["ready"]["viewModel"] == "sum"
    assert_no_console_errors(browser)
