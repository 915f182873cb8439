"""The page in a real browser: headless Debian Chromium, driven by Selenium, against the real
rxlive binary. It checks the login and sum forms behave like the RxSwift examples' screens, that the page
reconnects by itself after a server restart, and that no JavaScript error reaches the console."""
import os
import re
import subprocess

import pytest
from selenium import webdriver
from selenium.common.exceptions import StaleElementReferenceException, TimeoutException, WebDriverException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import WebDriverWait

from support import ARTIFACTS, binary, start_rxlive

pytestmark = pytest.mark.slow  # headless Chromium

CHROMIUM = os.environ.get("RXLIVE_CHROMIUM", "/usr/bin/chromium")
CHROMEDRIVER = os.environ.get("RXLIVE_CHROMEDRIVER", "/usr/bin/chromedriver")
LOGIN_DELAY = 0.5
# Generous: CI machines are slow, and a reconnect may wait out a few backoff steps (max 5 s each).
WAIT = 20
SCREENSHOT = ARTIFACTS / "browser-page.png"


@pytest.fixture
def server():
    with start_rxlive(extra_args=["--login-service", "simulated", "--login-delay", str(LOGIN_DELAY)]) as process:
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


# What Chromium says when an element found in one document is used after a reload replaced it:
# stale when the old document is gone, these while the new one is still taking its place.
RELOAD_RACES = ("does not belong to the document", "Execution context was destroyed",
                "Cannot find context with specified id")


def wait_until(driver, what, condition, timeout=WAIT, poll=0.05):
    """Polls `condition`; an element found just before the page reloads (a sign-in's form post
    brings it back) counts as not yet."""
    def attempt(_):
        try:
            return condition()
        except StaleElementReferenceException:
            return False
        except WebDriverException as error:
            if any(race in (error.msg or "") for race in RELOAD_RACES):
                return False
            raise
    try:
        return WebDriverWait(driver, timeout, poll_frequency=poll).until(attempt)
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
    answers false at once, and the page shows the login example's "Login Failed"."""
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


# Texts for number1, beside 0 and 0: whether the page hints that the sum counts it as 0. The
# server's sum is the judge: a text without a hint must add its value, one with a hint 0.
NUMBER_TEXTS = ["abc", "12abc", "1.5", " 7", "7 ", "1e3", "+", "-", "0x10", "٣",  # not whole numbers
                "9223372036854775808", "-9223372036854775809", "99999999999999999999",  # beyond 64 bits
                "", "0", "-0", "+5", "-42", "007", "9223372036854775807", "-9223372036854775808"]


def hint_of(driver, field):
    return text_of(driver, f"{field}-hint"), element(driver, field).get_attribute("aria-invalid")


def input_tops(driver):
    return driver.execute_script(
        "return ['number1', 'number2', 'number3'].map(id => document.getElementById(id).getBoundingClientRect().top)")


def test_a_number_field_the_sum_counts_as_zero_says_so_beside_it(server, browser):
    open_page(browser, server)
    set_fields(browser, [("number2", "0"), ("number3", "0")])
    tops = input_tops(browser)
    for value in NUMBER_TEXTS:
        hinted = value not in ("", "0", "-0", "+5", "-42", "007", "9223372036854775807", "-9223372036854775808")
        expected = "0" if hinted or value == "" else str(int(value))
        # Each edit gets an answer, so the sum shown is this text's, even when it equals the last one.
        browser.execute_script("document.getElementById('sum').textContent = '?'")
        set_fields(browser, [("number1", value)])
        wait_until(browser, f"the server's sum of {value!r}", lambda: text_of(browser, "sum") == expected)
        hint, invalid = hint_of(browser, "number1")
        if hinted:
            beyond = re.fullmatch(r"[+-]?[0-9]+", value) is not None
            assert hint == ("beyond 64 bits: counts as 0" if beyond else "not an integer: counts as 0"), value
            assert invalid == "true", value
        else:
            assert (hint, invalid) == ("", None), value
        assert hint_of(browser, "number2") == ("", None)
        assert input_tops(browser) == tops, f"a hint under number1 moved the inputs ({value!r})"

    set_fields(browser, [("number1", "abc"), ("number3", "x")])
    element(browser, "number1").location_once_scrolled_into_view
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    assert browser.save_screenshot(str(ARTIFACTS / "browser-number-hints.png"))
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

    with start_rxlive(port=port, extra_args=["--login-service", "simulated", "--login-delay", str(LOGIN_DELAY)]):
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


# ---- exact sums, one line at any width ---------------------------------------------------

LARGE_SUMS = [
    (("9007199254740993", "0", "0"), "9007199254740993"),  # 2^53 + 1: a double would show ...992
    (("9223372036854775807",) * 3, "27670116110564327421"),  # 3 × Int64.max
    (("-9223372036854775808",) * 3, "-27670116110564327424"),  # 3 × Int64.min, the longest sum
]


def set_fields(driver, values):
    """Sets each field's whole text at once, as a paste does: one input event per field."""
    driver.execute_script("""
        for (const [id, value] of arguments[0]) {
            const input = document.getElementById(id);
            input.value = value;
            input.dispatchEvent(new Event('input', {bubbles: true}));
        }
    """, list(values))


def sum_box(driver):
    return driver.execute_script("""
        const sum = document.getElementById('sum');
        // The text's own box: an element's box may be narrower than text that overflows it.
        const range = document.createRange();
        range.selectNodeContents(sum);
        const r = range.getBoundingClientRect(), total = sum.parentElement.getBoundingClientRect();
        return {lines: range.getClientRects().length, height: r.height, left: r.left, right: r.right,
                fontSize: parseFloat(getComputedStyle(sum).fontSize),
                boxLeft: total.left, boxRight: total.right, viewport: document.documentElement.clientWidth};
    """)


def test_large_sums_are_exact_and_fit_the_card_on_one_line(server, browser):
    open_page(browser, server)
    for viewport, width in (("desktop", None), ("phone", 360)):
        if width:
            browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                                    {"width": width, "height": 800, "deviceScaleFactor": 1, "mobile": True})
        for values, expected in LARGE_SUMS:
            set_fields(browser, zip(("number1", "number2", "number3"), values))
            wait_until(browser, f"the sum of {values} shows exactly {expected} ({viewport})",
                       lambda: text_of(browser, "sum") == expected)
            box = sum_box(browser)
            if width:
                assert box["viewport"] == width, box
            assert box["lines"] == 1 and box["height"] < 2 * box["fontSize"], box
            assert box["boxLeft"] <= box["left"] and box["right"] <= box["boxRight"], box
            assert box["fontSize"] >= 14, box  # still readable
        element(browser, "sum").location_once_scrolled_into_view
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        assert browser.save_screenshot(str(ARTIFACTS / f"browser-large-sum-{viewport}.png"))
    browser.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
    assert_no_console_errors(browser)


# ---- no message outlives the state it describes ------------------------------------------

def test_refusals_and_login_results_leave_when_they_no_longer_apply(browser):
    # 3 messages a second (bursts of 6): a burst of edits is refused, the page's resend is not.
    with start_rxlive(extra_args=["--login-service", "simulated", "--login-delay", str(LOGIN_DELAY), "--message-rate", "3"]) as server:
        open_page(browser, server)
        wait_until(browser, "the first sum", lambda: text_of(browser, "sum") == "0")
        set_fields(browser, [("number1", str(n)) for n in range(1, 9)])
        wait_until(browser, "the burst is refused",
                   lambda: element(browser, "sum-error").get_attribute("data-code") == "rate_limited"
                   and "slow down" in text_of(browser, "sum-error"))
        # Nobody edits: the page resends the fields a second later, the server takes them, the refusal goes.
        wait_until(browser, "the resend's answer clears the refusal",
                   lambda: text_of(browser, "sum-error") == "" and text_of(browser, "sum") == "8")

        set_fields(browser, [("username", "alice"), ("password", "secret")])
        wait_until(browser, "the button enables", lambda: is_enabled(browser, "login"))
        element(browser, "login").click()
        wait_until(browser, "the login succeeds", lambda: text_of(browser, "login-result") == "Login Successful")
        set_fields(browser, [("username", "")])
        wait_until(browser, "the button disables", lambda: not is_enabled(browser, "login"))
        assert text_of(browser, "login-result") == "", "the old answer no longer describes the fields"
        assert_no_console_errors(browser)



def record_messages(driver):
    """Record, after every change to the login result or the refusal, both texts and the time."""
    driver.execute_script("""
        const result = document.getElementById('login-result'), error = document.getElementById('login-error');
        window.loginMessages = [];
        const observer = new MutationObserver(
            () => window.loginMessages.push([result.textContent, error.textContent, performance.now()]));
        for (const node of [result, error]) observer.observe(node, {childList: true, characterData: true, subtree: true});
    """)


def test_a_refused_login_shows_one_message_in_the_words_of_the_server(browser, tmp_path):
    """Three quick wrong passwords, then a fourth tap: the server refuses it (`rate_limited`) and
    the page shows that refusal once, as the server words it, with no words of its own; the same
    for an accounts store the server cannot reach (`login_unavailable`)."""
    store = tmp_path / "accounts.sqlite"
    added = subprocess.run([str(binary("rxlive")), "user", "add", "ada", "--database", f"sqlite:{store}"],
                           input="engine\n", capture_output=True, text=True, timeout=60)
    assert added.returncode == 0, added.stderr
    with start_rxlive(extra_args=["--database", f"sqlite:{store}"]) as server:
        open_page(browser, server)
        set_fields(browser, [("username", "ada"), ("password", "wrong")])
        wait_until(browser, "the button enables", lambda: is_enabled(browser, "login"))
        record_login_result(browser)
        for failures in range(1, 4):
            element(browser, "login").click()
            wait_until(browser, f"wrong password {failures} is answered",
                       lambda: [e["text"] for e in login_result_history(browser)].count("Login Failed") == failures)

        record_messages(browser)
        element(browser, "login").click()
        refusal = re.compile(r"too many failed logins; try again in (\d+) s")
        wait_until(browser, "the fourth tap is refused", lambda: refusal.fullmatch(text_of(browser, "login-error")))
        assert element(browser, "login-error").get_attribute("data-code") == "rate_limited"
        assert text_of(browser, "login-result") == "", "the refusal is the tap's only answer"
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        assert browser.save_screenshot(str(ARTIFACTS / "browser-login-throttled.png"))
        # The refusal's words hold until the wait they name is over, then they go.
        wait_until(browser, "the refusal goes", lambda: text_of(browser, "login-error") == "")
        shown = browser.execute_script("return window.loginMessages")
        assert all(result == "" or error == "" for result, error, _ in shown), f"two messages at once: {shown}"
        assert [result for result, _, _ in shown if result] == ["Logging in…"], shown
        appeared, seconds = next((at, int(refusal.fullmatch(error)[1])) for _, error, at in shown if error)
        gone = shown[-1][2]
        assert gone - appeared >= seconds * 1000 - 50, f"the refusal went before its {seconds} s: {shown}"

        # The accounts file is gone: the server answers that it cannot check the login.
        store.unlink()
        record_messages(browser)
        element(browser, "login").click()
        wait_until(browser, "the tap is answered login_unavailable",
                   lambda: element(browser, "login-error").get_attribute("data-code") == "login_unavailable")
        assert text_of(browser, "login-error") == "the login service is unavailable; try again later"
        assert text_of(browser, "login-result") == ""
        shown = browser.execute_script("return window.loginMessages")
        assert all(result == "" or error == "" for result, error, _ in shown), f"two messages at once: {shown}"
        assert_no_console_errors(browser)


# ---- the dashboard -----------------------------------------------------------------------

ADMIN_TOKEN = "browser-dashboard-token-01"


def chart_latest(driver, name):
    return driver.execute_script(
        "const c = document.getElementById(arguments[0]);"
        "return {points: +c.dataset.points, latest: JSON.parse(c.dataset.latest || '{}'), image: c.toDataURL()};",
        f"chart-{name}")


def marbles(driver):
    """(lane, kind, label, length) of every marble on the diagram, in the order they happened."""
    return driver.execute_script("""
        return [...document.querySelectorAll('#marbles .marble')]
            .sort((a, b) => a.dataset.index - b.dataset.index)
            .map(m => [m.closest('.lane').dataset.lane, m.dataset.kind, m.dataset.label, m.dataset.length]);
    """)


def marble_columns(driver):
    """The x of every marble, in the order they happened."""
    return driver.execute_script("""
        return [...document.querySelectorAll('#marbles .marble')]
            .sort((a, b) => a.dataset.index - b.dataset.index).map(m => +m.dataset.x);
    """)


def watch_newest(driver, view_model):
    wait_until(driver, f"a live {view_model} session is listed",
               lambda: driver.find_elements(By.CSS_SELECTOR, f'#sessions tr[data-view-model="{view_model}"]'))
    # One script: the list is redrawn every second, so a found element may be replaced before a click.
    driver.execute_script("document.querySelector(arguments[0]).click()",
                          f'#sessions tr[data-view-model="{view_model}"] button')
    wait_until(driver, f"the {view_model} session is watched",
               lambda: element(driver, "watch-state").get_attribute("data-state") == "watching")


def test_dashboard_charts_move_under_load_and_marbles_show_another_tabs_typing(browser):
    args = ["--login-service", "simulated", "--login-delay", str(LOGIN_DELAY), "--message-rate", "0", "--admin-token", ADMIN_TOKEN]
    with start_rxlive(extra_args=args) as server:
        browser.set_window_size(1280, 1800)
        browser.get(f"http://127.0.0.1:{server.port}/dashboard#token={ADMIN_TOKEN}")
        wait_until(browser, "the dashboard session is live",
                   lambda: element(browser, "status").get_attribute("data-state") == "live")
        assert "token" not in browser.current_url, "the token leaves the address bar"
        origin = f"http://127.0.0.1:{server.port}/"
        fetched = browser.execute_script("return performance.getEntriesByType('resource').map(e => e.name)")
        assert fetched and all(url.startswith(origin) for url in fetched), f"requests beyond the server: {fetched}"
        wait_until(browser, "two quiet snapshots", lambda: chart_latest(browser, "messages")["points"] >= 2)
        quiet = chart_latest(browser, "messages")

        # A bounded load: 4 sum sessions, one change in flight each, for 4 seconds.
        load = subprocess.Popen([str(binary("ws-bench")), "sum", "--port", str(server.port), "--connections", "4",
                                 "--seconds", "4", "--timeout", "60"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        try:
            wait_until(browser, "the charts show the load",
                       lambda: chart_latest(browser, "messages")["latest"].get("in", 0) > 100
                       and chart_latest(browser, "sessions")["latest"].get("sum", 0) >= 4
                       and chart_latest(browser, "loops")["points"] > quiet["points"])
            busy = chart_latest(browser, "messages")
            assert busy["image"] != quiet["image"], "the messages chart was redrawn"
            assert chart_latest(browser, "latency")["latest"]["p99"] >= chart_latest(browser, "latency")["latest"]["p50"] > 0
            assert chart_latest(browser, "resources")["latest"]["Rx resources"] > 0
            ARTIFACTS.mkdir(parents=True, exist_ok=True)
            assert browser.save_screenshot(str(ARTIFACTS / "dashboard-under-load.png"))
        finally:
            output, _ = load.communicate(timeout=60)
        assert load.returncode == 0, output

        # Another tab types into the forms; the dashboard watches its sessions.
        dashboard = browser.current_window_handle
        browser.switch_to.new_window("tab")
        page = browser.current_window_handle
        open_page(browser, server)
        browser.switch_to.window(dashboard)
        wait_until(browser, "the load's sessions are gone",
                   lambda: len(browser.find_elements(By.CSS_SELECTOR, '#sessions tr[data-view-model="sum"]')) == 1)
        watch_newest(browser, "sum")

        browser.switch_to.window(page)
        for field, keys in (("number1", "12"), ("number2", "30"), ("number3", "x")):
            element(browser, field).send_keys(keys)
        wait_until(browser, "the sum is 42", lambda: text_of(browser, "sum") == "42")
        browser.switch_to.window(dashboard)
        expected = [["number1", "next", "1", ""], ["sum", "next", "1", ""],
                    ["number1", "next", "12", ""], ["sum", "next", "12", ""],
                    ["number2", "next", "3", ""], ["sum", "next", "15", ""],
                    ["number2", "next", "30", ""], ["sum", "next", "42", ""],
                    ["number3", "next", "x", ""], ["sum", "next", "42", ""]]
        wait_until(browser, "the marbles of the other tab's typing, in order", lambda: marbles(browser) == expected)
        # Each sum sits under the input that caused it, and time runs left to right.
        xs = marble_columns(browser)
        assert all(xs[i] == xs[i + 1] for i in range(0, len(xs), 2)), xs
        assert all(xs[i] < xs[i + 2] for i in range(0, len(xs) - 2, 2)), xs
        assert browser.save_screenshot(str(ARTIFACTS / "dashboard-marbles-sum.png"))

        # A login: the password lane shows lengths, never the password.
        watch_newest(browser, "login")
        browser.switch_to.window(page)
        element(browser, "username").send_keys("ada")
        element(browser, "password").send_keys("hunter2")
        wait_until(browser, "the button enables", lambda: is_enabled(browser, "login"))
        element(browser, "login").click()
        wait_until(browser, "the login succeeds", lambda: text_of(browser, "login-result") == "Login Successful")
        browser.switch_to.window(dashboard)
        wait_until(browser, "the login result marble", lambda: ["loginResult", "next", "true", ""] in marbles(browser))
        seen = marbles(browser)
        assert [m for m in seen if m[0] == "password"] == [["password", "next", "", str(n)] for n in range(1, 8)], seen
        assert [m[2] for m in seen if m[0] == "username"] == ["a", "ad", "ada"], seen
        assert "hunter" not in browser.find_element(By.ID, "marbles").get_attribute("outerHTML")
        assert browser.save_screenshot(str(ARTIFACTS / "dashboard-marbles-login.png"))
        assert_no_console_errors(browser)
def open_dashboard(driver, server):
    driver.get(f"http://127.0.0.1:{server.port}/dashboard#token={ADMIN_TOKEN}")
    wait_until(driver, "the dashboard session is live",
               lambda: element(driver, "status").get_attribute("data-state") == "live")


def test_dashboard_charts_of_whole_numbers_have_whole_number_ticks(browser):
    """Every stat is a whole number, so no axis may read 0.3 or 0.8: the labels drawn on every
    chart, caught as the canvas draws them, are whole numbers (1.5k is 1500)."""
    with start_rxlive(extra_args=["--admin-token", ADMIN_TOKEN]) as server:
        browser.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": """
            window.canvasTexts = {};
            const fillText = CanvasRenderingContext2D.prototype.fillText;
            CanvasRenderingContext2D.prototype.fillText = function (text, ...rest) {
                (window.canvasTexts[this.canvas.id] ??= new Set()).add(String(text));
                return fillText.call(this, text, ...rest);
            };
        """})
        open_dashboard(browser, server)
        wait_until(browser, "three snapshots", lambda: chart_latest(browser, "sessions")["points"] >= 3)
        drawn = browser.execute_script(
            "return Object.fromEntries(Object.entries(window.canvasTexts).map(([id, texts]) => [id, [...texts]]))")
        assert set(drawn) == {f"chart-{name}" for name in ("sessions", "messages", "latency", "resources", "loops")}, drawn
        for chart, texts in drawn.items():
            ticks = [text for text in texts if text != "last 90 s"]
            assert "0" in ticks and len(ticks) >= 2, (chart, texts)
            for tick in ticks:
                number = re.fullmatch(r"(\d+(?:\.\d)?)([kM]?)", tick)
                assert number, (chart, tick)
                value = float(number[1]) * {"": 1, "k": 1e3, "M": 1e6}[number[2]]
                assert value == int(value), f"{chart} has the tick {tick}: {texts}"
        assert set(drawn["chart-sessions"]) - {"last 90 s"} == {"0", "1"}, "one dashboard session: 0 to 1"


def test_dashboard_rows_of_charts_have_no_empty_slot_at_the_usual_widths(browser):
    with start_rxlive(extra_args=["--admin-token", ADMIN_TOKEN]) as server:
        open_dashboard(browser, server)
        for width in (1920, 1440, 1280, 1024, 800, 390):
            browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                                    {"width": width, "height": 1000, "deviceScaleFactor": 1, "mobile": width < 600})
            rows = browser.execute_script("""
                const board = document.querySelector('.board'), style = getComputedStyle(board);
                const inner = board.getBoundingClientRect();
                const left = inner.left + parseFloat(style.paddingLeft), right = inner.right - parseFloat(style.paddingRight);
                const rows = new Map();
                for (const card of board.querySelectorAll(':scope > .card')) {
                    const r = card.getBoundingClientRect();
                    const row = rows.get(Math.round(r.top)) ?? [];
                    row.push({left: r.left, right: r.right, chart: card.classList.contains('chart-card')});
                    rows.set(Math.round(r.top), row);
                }
                return {left, right, rows: [...rows.values()]};
            """)
            charts = [row for row in rows["rows"] if any(card["chart"] for card in row)]
            assert sum(len(row) for row in charts) == 5, rows
            for row in rows["rows"]:
                # Each row runs from the board's left edge to its right edge: no empty slot at its end.
                assert abs(row[0]["left"] - rows["left"]) <= 1 and abs(row[-1]["right"] - rows["right"]) <= 1, (width, rows)
            if width >= 1280:
                assert len(charts[0]) == 3, f"three charts a row at {width} px: {rows}"
        browser.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
        browser.set_window_size(1280, 1100)
        drawn = chart_latest(browser, "sessions")["points"]
        wait_until(browser, "a snapshot drawn at this width", lambda: chart_latest(browser, "sessions")["points"] > drawn)
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        assert browser.save_screenshot(str(ARTIFACTS / "dashboard-board.png"))
        assert_no_console_errors(browser)


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
