"""rxlive.js, the client library, on its own test page (pages/library.html) in headless Chromium
against the real sum and login view models: every input kind, taps by click and by submit,
outputs to text, attributes, classes, visibility and enabled state, refusals, stale outputs and
recovery after a restart, scripted binding; lists, structs and enums rendered in the browser; and
the library's pure functions under node (js/rxlive.test.mjs)."""
import json
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select

import support
from support import REPO, start_rxlive
from test_browser import WAIT, assert_no_console_errors, browser, element, text_of, wait_until  # noqa: F401 (fixture)

HERE = Path(__file__).resolve().parent
LOGIN_DELAY = 0.3
SERVER_ARGS = ["--login-service", "simulated", "--login-delay", str(LOGIN_DELAY)]


@pytest.fixture
def public():
    """The test page with a copy of the library beside it, as the server serves it at /rxlive.js."""
    with tempfile.TemporaryDirectory(prefix="rxlive-library-") as folder:
        shutil.copy(HERE / "pages" / "library.html", folder)
        shutil.copy(HERE / "pages" / "library-events.js", folder)
        shutil.copy(REPO / "Sources" / "RxLive" / "ClientScript" / "rxlive.js", folder)
        yield Path(folder)


@pytest.fixture
def server(public):
    with start_rxlive(extra_args=SERVER_ARGS, public=public) as process:
        yield process


def open_library_page(driver, port):
    driver.get(f"http://127.0.0.1:{port}/library.html")
    for view in ("sum", "login"):
        wait_until(driver, f"the {view} container is live",
                   lambda: element(driver, f"{view}-status").get_attribute("data-state") == "live")


def events(driver, type_=None, view=None):
    return [e for e in driver.execute_script("return window.events")
            if (type_ is None or e["type"] == type_) and (view is None or e["view"] == view)]


def attribute(driver, element_id, name):
    return element(driver, element_id).get_attribute(name)


def has_class(driver, element_id, name):
    return driver.execute_script("return document.getElementById(arguments[0]).classList.contains(arguments[1])",
                                 element_id, name)


def test_inputs_of_every_kind_drive_text_attribute_class_and_visibility_outputs(server, browser):
    open_library_page(browser, server.port)
    assert text_of(browser, "sum-status") == "Connected"
    # Sent on ready: the text field's "2", the select's "3", the checked radio's "5".
    wait_until(browser, "the sum of the initial values", lambda: text_of(browser, "total") == "10")
    assert attribute(browser, "total", "title") == "10"
    assert attribute(browser, "total", "data-zero") is None, "!sum is false: the attribute is removed"
    assert has_class(browser, "total", "nonzero")
    assert not element(browser, "zero-note").is_displayed()
    assert attribute(browser, "total", "data-stale") == "false"
    ready = events(browser, "ready", "sum")
    assert len(ready) == 1 and ready[0]["detail"]["ready"]["viewModel"] == "sum", ready

    browser.find_element(By.CSS_SELECTOR, 'input[name="n3"][value="100"]').click()
    wait_until(browser, "the other radio's value", lambda: text_of(browser, "total") == "105")
    Select(element(browser, "n2")).select_by_visible_text("40")
    wait_until(browser, "the select's new value", lambda: text_of(browser, "total") == "142")

    element(browser, "n1").send_keys(Keys.BACKSPACE, "-140")
    wait_until(browser, "a zero sum", lambda: text_of(browser, "total") == "0")
    assert attribute(browser, "total", "data-zero") == "", "!sum is true: the attribute is set, empty"
    assert not has_class(browser, "total", "nonzero")
    assert element(browser, "zero-note").is_displayed()
    assert events(browser, "output", "sum")[-1]["detail"] == {"name": "sum", "value": 0}

    wait_until(browser, "the data-rx-url container is live",
               lambda: attribute(browser, "by-url-status", "data-state") == "live")
    assert events(browser, "ready", "by-url")[0]["detail"]["ready"]["viewModel"] == "sum"
    log = browser.get_log("browser")
    warnings = [entry["message"] for entry in log if entry["level"] == "WARNING"]
    assert any("sum has no such inputs, taps or outputs" in w and "nosuch" in w for w in warnings), warnings
    assert not [entry for entry in log if entry["level"] == "SEVERE"], log


def test_taps_by_click_and_by_submit_each_send_one_tap(server, browser):
    open_library_page(browser, server.port)
    wait_until(browser, "the first isLoginButtonEnabled", lambda: text_of(browser, "enabled-text") == "false")
    assert not element(browser, "submit-tap").is_enabled()

    element(browser, "click-tap").click()  # a button outside the form: its click taps
    wait_until(browser, "the empty form's answer", lambda: text_of(browser, "answer") == "false")
    assert not has_class(browser, "answer", "ok")

    element(browser, "user").send_keys("ada")
    element(browser, "pass").send_keys("pw")
    wait_until(browser, "both fields enable the submit button", lambda: element(browser, "submit-tap").is_enabled())
    assert text_of(browser, "enabled-text") == "true"
    element(browser, "pass").send_keys(Keys.ENTER)  # submits the form: the tap of its button
    wait_until(browser, "the simulated login's answer", lambda: text_of(browser, "answer") == "true")
    assert has_class(browser, "answer", "ok")
    element(browser, "submit-tap").click()
    wait_until(browser, "three answers", lambda: len([e for e in events(browser, "output", "login")
                                                      if e["detail"]["name"] == "loginResult"]) == 3)
    taps = events(browser, "tap", "login")
    assert [t["detail"] for t in taps] == [{"name": "loginTapped"}] * 3, "one tap per click or submit"
    assert browser.current_url.endswith("/library.html"), "no submit loaded a page"
    assert_no_console_errors(browser)


def test_refusals_show_and_a_restart_marks_outputs_stale_then_recovers_every_value(server, browser, public):
    open_library_page(browser, server.port)
    # A data-rx-type="number" field sends a JSON number, which a text input refuses.
    wait_until(browser, "the number's refusal", lambda: attribute(browser, "typed-error", "data-code") == "bad_value")
    assert "string" in text_of(browser, "typed-error")
    refusal = events(browser, "error", "typed")[0]["detail"]
    assert refusal["code"] == "bad_value" and "string" in refusal["message"], refusal

    browser.set_script_timeout(WAIT)
    same = browser.execute_async_script("""
        const done = arguments[arguments.length - 1];
        import('/rxlive.js').then((rx) => {
            const element = document.getElementById('scripted');
            window.scripted = rx.bind(element, {view: 'sum'});
            done(rx.bind(element) === window.scripted);
        });
    """)
    assert same, "binding a bound container again gives its handle"
    wait_until(browser, "the scripted session is live", lambda: browser.execute_script("return window.scripted.live"))
    for name, value in (("number1", "1"), ("number2", "2"), ("number3", "39")):
        assert browser.execute_script("return window.scripted.send(arguments[0], arguments[1])", name, value)
    wait_until(browser, "the scripted sum", lambda: text_of(browser, "scripted-total") == "42")
    wait_until(browser, "the page's sum", lambda: text_of(browser, "total") == "10")
    assert element(browser, "click-tap").is_enabled()

    port = server.port
    server.stop()
    for view in ("sum", "login", "scripted"):
        wait_until(browser, f"{view} shows it is offline",
                   lambda: attribute(browser, f"{view}-status", "data-state") == "offline")
    assert text_of(browser, "sum-status") == "Disconnected, reconnecting…"
    assert attribute(browser, "total", "data-stale") == "true" and text_of(browser, "total") == "10"
    assert not element(browser, "click-tap").is_enabled(), "no tap without a session"
    assert not element(browser, "submit-tap").is_enabled()
    assert {"live": False} in [e["detail"] for e in events(browser, "live", "sum")]

    with start_rxlive(port=port, extra_args=SERVER_ARGS, public=public):
        for view in ("sum", "login", "scripted"):
            wait_until(browser, f"{view} reconnects", lambda: attribute(browser, f"{view}-status", "data-state") == "live")
        wait_until(browser, "the page's values come back",
                   lambda: text_of(browser, "total") == "10" and attribute(browser, "total", "data-stale") == "false")
        wait_until(browser, "the scripted values come back", lambda: text_of(browser, "scripted-total") == "42"
                   and attribute(browser, "scripted-total", "data-stale") == "false")
        assert element(browser, "click-tap").is_enabled(), "a tap without data-rx-enabled comes back"
        assert not element(browser, "submit-tap").is_enabled(), "data-rx-enabled waits for its output"
        wait_until(browser, "the refusal again, from the new session",
                   lambda: len(events(browser, "error", "typed")) == 2)

        closed = browser.execute_script("""
            window.scripted.close();
            return {live: window.scripted.live, sent: window.scripted.send('number1', '5')};
        """)
        assert closed == {"live": False, "sent": False}
        assert text_of(browser, "scripted-total") == "42"

    # While the server was down the browser logs each refused reconnect; nothing else may appear.
    refused = re.compile(rf"WebSocket connection to 'ws://127\.0\.0\.1:{port}/ws/(login|sum)' failed")
    assert_no_console_errors(browser, allowed=refused)


RENDER = """
    const done = arguments[arguments.length - 1];
    import('/rxlive.js').then((rx) => {
        const root = document.getElementById('rendered');
        for (const [name, value] of arguments[0]) rx.renderOutput(root, name, value);
        const items = [...document.querySelectorAll('#results > li')].map((li) => ({
            done: li.classList.contains('done'), title: li.querySelector('span').textContent,
            case: li.querySelector('em').textContent, dataCase: li.querySelector('em').dataset.case,
            reason: li.querySelector('small').textContent, reasonHidden: li.querySelector('small').hidden,
            tags: [...li.querySelectorAll('ol > li')].map((tag) => tag.textContent)}));
        const validation = document.getElementById('validation');
        done({items, count: document.getElementById('count').textContent,
              validation: validation.textContent, validationCase: validation.dataset.case,
              invalid: validation.classList.contains('invalid'),
              whole: document.getElementById('whole').textContent,
              templates: document.querySelectorAll('#results > template').length});
    });
"""


def test_lists_structs_and_enums_render_through_templates(server, browser):
    open_library_page(browser, server.port)
    browser.set_script_timeout(WAIT)
    results = {"owner": {"name": "ada", "id": 7}, "items": [
        {"title": "first", "done": True, "state": {"valid": {}}, "tags": ["x", "y"]},
        {"title": "second", "done": False, "state": {"failed": {"_0": "too short"}}, "tags": []}]}
    shown = browser.execute_async_script(RENDER, [["results", results],
                                                  ["validation", {"failed": {"message": "needs a digit"}}]])
    assert shown["items"] == [
        {"done": True, "title": "first", "case": "valid", "dataCase": "valid", "reason": "",
         "reasonHidden": True, "tags": ["x", "y"]},
        {"done": False, "title": "second", "case": "failed", "dataCase": "failed", "reason": "too short",
         "reasonHidden": False, "tags": []}]
    assert shown["count"] == "2"
    assert json.loads(shown["whole"]) == results["owner"], "a struct as text is its JSON"
    assert (shown["validation"], shown["validationCase"], shown["invalid"]) == ("needs a digit", "failed", True)
    assert shown["templates"] == 1

    results["items"] = results["items"][1:]
    shown = browser.execute_async_script(RENDER, [["results", results], ["validation", {"valid": {}}]])
    assert [item["title"] for item in shown["items"]] == ["second"], "a new value replaces the items"
    assert shown["count"] == "1" and shown["templates"] == 1
    assert (shown["validation"], shown["validationCase"], shown["invalid"]) == ("", "valid", False)
    assert_no_console_errors(browser)


def test_the_library_functions_pass_their_node_tests():
    node = shutil.which("node")
    assert node, "node is missing: scripts/setup test installs it"
    run = subprocess.run([node, "--test", str(HERE / "js" / "rxlive.test.mjs")],
                         capture_output=True, text=True, timeout=120, cwd=REPO)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "# fail 0" in run.stdout, run.stdout


def test_every_app_serves_the_client_library_from_its_binary():
    """/rxlive.js is the library's own file, embedded up to date, whatever the page folder holds."""
    embed = subprocess.run([sys.executable, str(REPO / "scripts" / "embed-client-script.py"), "--check"],
                           capture_output=True, text=True)
    assert embed.returncode == 0, embed.stderr
    source = (REPO / "Sources" / "RxLive" / "ClientScript" / "rxlive.js").read_bytes()
    with tempfile.TemporaryDirectory() as empty:
        with support.start_rxlive(extra_args=["--public", empty]) as server:
            status, body = support.http_get(server.port, "/rxlive.js")
    assert status == 200
    assert body == source
