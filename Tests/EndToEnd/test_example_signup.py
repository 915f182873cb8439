"""End-to-end: the sign-up example (Examples/SignUp), a separate package on RxLive, built by
scripts/test and driven over a real socket. Its view model is declared outside this
repository's own targets; its outputs are enums with messages (Codable) and booleans."""
import json
import os
from pathlib import Path

import pytest

from selenium.webdriver.common.by import By

import support
from raw_websocket import RawWebSocket
from test_browser import assert_no_console_errors, browser, wait_until  # noqa: F401 (fixture)

EXAMPLE = support.REPO / "Examples" / "SignUp"
EXAMPLE_BIN = Path(os.environ.get("RXLIVE_EXAMPLES_BIN_DIR", support.REPO / ".build-examples" / "debug"))


@pytest.fixture
def server():
    if not (EXAMPLE_BIN / "signup-server").exists():
        pytest.fail(f"{EXAMPLE_BIN}/signup-server is missing: scripts/test builds it")
    port = support.free_port()
    old = support.BIN_DIR
    support.BIN_DIR = EXAMPLE_BIN
    try:
        process = support.ServerProcess(
            "signup-server", ["--host", "127.0.0.1", "--port", str(port), "--public", str(EXAMPLE / "Public")], port)
    finally:
        support.BIN_DIR = old
    yield process
    assert process.stop() == 0


def outputs(socket, count):
    """The next `count` output messages as (name, value), failing on anything else."""
    got = []
    while len(got) < count:
        message = socket.receive_json()
        assert "output" in message, message
        got.append((message["output"], message["value"]))
    return got


def test_the_example_serves_its_view_model_with_codable_outputs(server):
    ws = RawWebSocket(server.port, "/ws/signup")
    ready = ws.receive_json()["ready"]
    assert ready["viewModel"] == "signup"
    assert ready["inputs"] == {"username": "text", "password": "text", "repeatedPassword": "text", "signUp": "tap"}
    for name in ("username", "password", "repeatedPassword"):
        ws.send_json({"input": name, "value": ""})
    first = dict(outputs(ws, 5))
    assert first["validatedUsername"] == {"empty": {}}
    assert first["validatedPassword"] == {"empty": {}}
    assert first["signUpEnabled"] is False
    assert first["checking"] is False
    ws.send_json({"input": "username", "value": "ada"})
    assert outputs(ws, 1) == [("validatedUsername", {"validating": {}})]
    # The service answers after 300 ms, with the indicator on meanwhile.
    rest = outputs(ws, 3)
    assert ("checking", True) in rest and ("checking", False) in rest
    assert ("validatedUsername", {"failed": {"message": "Username already taken"}}) in rest
    ws.send_json({"input": "username", "value": 5})
    refused = ws.receive_json()
    assert refused["error"]["code"] == "bad_value", refused
    ws.close()


def test_a_full_sign_up_enables_the_button_and_signs_up_once(server):
    ws = RawWebSocket(server.port, "/ws/signup")
    ws.receive_json()
    ws.send_json({"input": "username", "value": "grace"})
    ws.send_json({"input": "password", "value": "secret1"})
    ws.send_json({"input": "repeatedPassword", "value": "secret1"})
    seen = []
    while ("signUpEnabled", True) not in seen:
        seen += outputs(ws, 1)
    assert ("validatedUsername", {"ok": {"message": "Username available"}}) in seen
    assert ("validatedRepeatedPassword", {"ok": {"message": "Password repeated"}}) in seen
    ws.send_json({"input": "signUp"})
    after = []
    while ("signedUp", True) not in after:
        after += outputs(ws, 1)
    assert ("signUpEnabled", False) in after
    ws.close()


def test_chromium_fills_the_example_form(server, browser):
    """The example's page, bound only by attributes through /rxlive.js, in headless Chromium."""
    driver = browser
    driver.get(f"http://127.0.0.1:{server.port}/")
    field = lambda element_id: driver.find_element(By.ID, element_id)  # noqa: E731
    wait_until(driver, "the form is live", lambda: field("status").get_attribute("data-state") == "live")
    field("username").send_keys("ada")
    wait_until(driver, "ada is taken", lambda: field("username-message").text == "Username already taken")
    assert field("username-message").get_attribute("data-case") == "failed"
    field("username").send_keys("lovelace")
    wait_until(driver, "the new name is free", lambda: field("username-message").text == "Username available")
    field("password").send_keys("secret1")
    field("repeated").send_keys("secret2")
    wait_until(driver, "the repeat differs", lambda: field("repeated-message").text == "Passwords differ")
    assert not field("signup-button").is_enabled()
    field("repeated").send_keys("\b1")
    wait_until(driver, "the button is enabled", lambda: field("signup-button").is_enabled())
    field("signup-button").click()
    wait_until(driver, "signed up", lambda: field("signed-up").is_displayed())
    assert_no_console_errors(driver)


def test_an_app_without_accounts_neither_shows_nor_takes_their_options():
    import subprocess
    binary = str(EXAMPLE_BIN / "signup-server")
    shown = subprocess.run([binary, "--help"], capture_output=True, text=True, timeout=30)
    assert shown.returncode == 0 and "--port" in shown.stdout
    for flag in ("--database", "--login-service", "--login-delay", "--login-workers"):
        assert flag not in shown.stdout
    refused = subprocess.run([binary, "--database", "sqlite:x"], capture_output=True, text=True, timeout=30)
    assert refused.returncode == 2
    assert refused.stderr == "signup-server: error: --database: signup-server has no accounts\n"
