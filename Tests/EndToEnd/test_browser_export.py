"""Browser: the dashboard's Record control records new sessions of the watched view model, and
its "Export as test" button downloads the XCTest case `rxlive replay --rxtest` writes for the
watched session, in a real headless Chromium; no password typed into the login page reaches
a recording, an export or the log."""
import glob
import re
import tempfile
import time

import pytest
from selenium import webdriver
from selenium.common.exceptions import WebDriverException
from selenium.webdriver.chrome.service import Service

from raw_websocket import RawWebSocket
from support import ARTIFACTS, start_rxlive
from test_browser import (ADMIN_TOKEN, CHROMEDRIVER, CHROMIUM, LOGIN_DELAY, assert_no_console_errors, element,
                          is_enabled, marbles, open_dashboard, open_page, text_of, wait_until, watch_newest)

pytestmark = pytest.mark.slow  # headless Chromium

PASSWORD = "Corr3ct-H0rse-Battery-Staple"


@pytest.fixture
def downloads(tmp_path):
    folder = tmp_path / "downloads"
    folder.mkdir()
    return folder


@pytest.fixture
def browser(downloads):
    """Chromium that saves every download into `downloads` without asking."""
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for arg in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1280,1400"):
        options.add_argument(arg)
    options.add_experimental_option("prefs", {"download.default_directory": str(downloads),
                                              "download.prompt_for_download": False})
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    try:
        driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    except (WebDriverException, OSError) as error:
        pytest.fail(f"Chromium could not start ({CHROMIUM} via {CHROMEDRIVER}): {error}")
    try:
        driver.execute_cdp_cmd("Browser.setDownloadBehavior", {"behavior": "allow", "downloadPath": str(downloads)})
        yield driver
    finally:
        driver.quit()


@pytest.fixture
def server():
    args = ["--login-service", "simulated", "--login-delay", str(LOGIN_DELAY), "--admin-token", ADMIN_TOKEN]
    with start_rxlive(extra_args=args) as process:
        yield process


def case_class(view_model, session):
    """The case's class name: the view model's and the session id's first letters capitalised."""
    return f"Recorded{view_model.capitalize()}Session{session[0].upper()}{session[1:]}Tests"


def click(driver, element_id):
    wait_until(driver, f"{element_id} is enabled", lambda: is_enabled(driver, element_id))
    driver.execute_script("document.getElementById(arguments[0]).click()", element_id)


def downloaded(driver, folder, name):
    """The text of the file `name` once Chromium finished saving it into `folder`."""
    path = folder / name
    wait_until(driver, f"{name} is downloaded", lambda: path.exists() and not list(folder.glob("*.crdownload")))
    return path.read_text()


def start_recording(driver, view_model):
    """Watches a live session of `view_model` and presses Record for that view model."""
    watch_newest(driver, view_model)
    click(driver, "record-toggle")
    wait_until(driver, f"{view_model} sessions are recorded",
               lambda: element(driver, "recording-state").get_attribute("data-view-model") == view_model)
    assert text_of(driver, "record-toggle") == f"Stop recording {view_model} sessions"


def test_export_as_test_downloads_the_xctest_case_of_the_watched_sum_session(server, browser, downloads):
    open_dashboard(browser, server)
    before = RawWebSocket(server.port, "/ws/sum")
    before_id = before.receive_json()["ready"]["session"]
    try:
        start_recording(browser, "sum")
        # A sum session over a real WebSocket, opened after Record: recorded from its start.
        ws = RawWebSocket(server.port, "/ws/sum")
        session = ws.receive_json()["ready"]["session"]
        wait_until(browser, "the new session is listed",
                   lambda: browser.execute_script("return document.querySelector('#sessions tr')?.dataset.session") == session)
        watch_newest(browser, "sum")
        for name, value in (("number1", "7"), ("number2", "30"), ("number3", "5")):
            ws.send_json({"input": name, "value": value})
        assert ws.receive_json() == {"output": "sum", "value": 42}  # once all three are set
        wait_until(browser, "the marbles of the session", lambda: ["sum", "next", "42", ""] in marbles(browser))

        click(browser, "export-test")
        name = f"{case_class('sum', session)}.swift"
        wait_until(browser, "the page says the test is saved",
                   lambda: element(browser, "download-state").get_attribute("data-file") == name)
        test = downloaded(browser, downloads, name)
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        assert browser.save_screenshot(str(ARTIFACTS / "dashboard-export-as-test.png"))
        assert f"final class {case_class('sum', session)}: XCTestCase" in test
        assert f'session {session} of "sum"' in test
        for name_, value in (("number1", "7"), ("number2", "30"), ("number3", "5")):
            assert re.search(rf'"{name_}": \.text\(scheduler\.createHotObservable\(\[\.next\(\d+, "{value}"\)\]\)\)', test), test
        assert re.search(r'XCTAssertEqual\(outputSum\.events, \[\.next\(\d+, "42"\)\]\)', test), test

        # The session opened before Record was not recorded: the page says so, and saves nothing.
        browser.execute_script("document.getElementById('watchSession').value = arguments[0];"
                               "document.getElementById('watchSession').dispatchEvent(new Event('input'))", before_id)
        wait_until(browser, "the older session is watched",
                   lambda: element(browser, "watch-state").get_attribute("data-state") == "watching"
                   and before_id in text_of(browser, "watch-state"))
        click(browser, "export-test")
        wait_until(browser, "the page says why there is no test",
                   lambda: element(browser, "download-state").get_attribute("data-state") == "failed")
        assert text_of(browser, "download-state") == f"session {before_id} was not recorded: press Record before its session opens"
        assert sorted(path.name for path in downloads.iterdir()) == [name]
        ws.close()
        assert_no_console_errors(browser)
    finally:
        before.close()


def test_no_password_typed_into_the_login_page_reaches_a_recording_an_export_or_the_log(server, browser, downloads):
    open_dashboard(browser, server)
    dashboard = browser.current_window_handle
    browser.switch_to.new_window("tab")
    page = browser.current_window_handle
    open_page(browser, server)
    browser.switch_to.window(dashboard)
    start_recording(browser, "login")
    newest_login = "return document.querySelector('#sessions tr[data-view-model=\"login\"]')?.dataset.session"
    unrecorded = browser.execute_script(newest_login)
    browser.switch_to.window(page)
    open_page(browser, server)  # a new login session, recorded from its start
    browser.switch_to.window(dashboard)
    wait_until(browser, "the new login session is listed", lambda: browser.execute_script(newest_login) not in (None, unrecorded))
    watch_newest(browser, "login")
    browser.switch_to.window(page)
    element(browser, "username").send_keys("ada")
    element(browser, "password").send_keys(PASSWORD)
    wait_until(browser, "the button enables", lambda: is_enabled(browser, "login"))
    element(browser, "login").click()
    wait_until(browser, "the login succeeds", lambda: text_of(browser, "login-result") == "Login Successful")
    browser.switch_to.window(dashboard)
    wait_until(browser, "the login result marble", lambda: ["loginResult", "next", "true", ""] in marbles(browser))

    click(browser, "download-recording")
    wait_until(browser, "the recording is saved",
               lambda: (element(browser, "download-state").get_attribute("data-file") or "").endswith(".rxlive.jsonl"))
    recording = downloaded(browser, downloads, element(browser, "download-state").get_attribute("data-file"))
    assert f'"input":"password","secret":{len(PASSWORD)}}}' in recording
    click(browser, "export-test")
    wait_until(browser, "the test is saved",
               lambda: (element(browser, "download-state").get_attribute("data-file") or "").endswith("Tests.swift"))
    test = downloaded(browser, downloads, element(browser, "download-state").get_attribute("data-file"))
    assert "RecordedLoginSession" in test and '"password": .text(' in test
    time.sleep(0.2)  # the log's last lines
    # The server's private recordings, the downloads and the log: no password anywhere.
    private = glob.glob(f"{tempfile.gettempdir()}/rxlive-dashboard-{server.proc.pid}-*/*.rxlive.jsonl")
    assert private, "the dashboard's recordings are in its private folder"
    for path in [*private, *map(str, downloads.iterdir()), str(server.log_path)]:
        with open(path, errors="replace") as file:
            assert PASSWORD not in file.read(), path
    assert_no_console_errors(browser)
