"""End-to-end: the sign-up example (Examples/SignUp), a separate package on RxLive, built by
scripts/test and driven over a real socket. Its view model is declared outside this
repository's own targets; its outputs are enums with messages (Codable) and booleans."""
import json
import shlex
import subprocess

import pytest

from selenium.webdriver.common.by import By

import support
from raw_websocket import RawWebSocket
from test_browser import assert_no_console_errors, browser, wait_until  # noqa: F401 (fixture)

pytestmark = pytest.mark.slow  # builds the example package

EXAMPLE_BIN = support.EXAMPLES_BIN_DIR


@pytest.fixture
def server():
    process = support.start_example("SignUp", "signup-server")
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


def websocat_session(port, lines, seconds=1.0, path="/ws/signup"):
    """What websocat prints for a session of `path` that sends `lines` and stays `seconds`
    more: the messages after `ready`, as JSON, in order."""
    script = "".join(f"{json.dumps(line)}\n" for line in lines)
    command = f"printf '%s' {shlex.quote(script)}; sleep {seconds}"
    shell = f"({command}) | {shlex.quote(str(support.tool('websocat')))} -t ws://127.0.0.1:{port}{path}"
    done = subprocess.run(["sh", "-c", shell], capture_output=True, text=True, timeout=30)
    messages = [json.loads(line) for line in done.stdout.splitlines() if line]
    assert messages and "ready" in messages[0], (done.stdout, done.stderr)
    return messages[1:]


FIRST_VALUES = [
    {"output": "validatedUsername", "value": {"empty": {}}},
    {"output": "validatedPassword", "value": {"empty": {}}},
    {"output": "validatedRepeatedPassword", "value": {"empty": {}}},
    {"output": "signUpEnabled", "value": False},
    {"output": "checking", "value": False},
]


def by_output(messages):
    return sorted(messages, key=lambda message: json.dumps(message, sort_keys=True))


def test_a_websocat_session_that_sends_nothing_sees_the_first_values_validated(server):
    """The fields start with "" (PROTOCOL.md, "First values"): every output comes at once."""
    assert by_output(websocat_session(server.port, [])) == by_output(FIRST_VALUES)


def test_re_sending_the_fields_after_ready_as_the_page_does_changes_nothing(server):
    """A page (re)connecting re-sends its empty fields; it sees what websocat sees, no more."""
    empty = [{"input": name, "value": ""} for name in ("username", "password", "repeatedPassword")]
    assert by_output(websocat_session(server.port, empty)) == by_output(FIRST_VALUES)
    # A filled field re-sent is one change, as if typed: only what depends on it follows.
    after = websocat_session(server.port, [{"input": "password", "value": "secret1"}])
    assert by_output(after) == by_output(FIRST_VALUES + [
        {"output": "validatedPassword", "value": {"ok": {"message": "Password acceptable"}}},
        {"output": "validatedRepeatedPassword", "value": {"empty": {}}},
    ]), after


def test_the_apps_own_counter_is_on_metrics_beside_rxlives(server):
    """The example counts the accounts it makes with swift-metrics' Counter, through
    `import RxLive` alone; /metrics shows it beside RxLive's own counters."""
    def metrics():
        status, body = support.http_get(server.port, "/metrics")
        assert status == 200
        return body.decode()
    assert "signup_accounts_created_total 0" in metrics()
    test_a_full_sign_up_enables_the_button_and_signs_up_once(server)
    text = metrics()
    assert "signup_accounts_created_total 1" in text, text
    assert "rxlive_sessions_opened_total" in text or "rxlive_sessions_open" in text, text


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


def profile_session(server):
    ws = RawWebSocket(server.port, "/ws/profile")
    ready = ws.receive_json()["ready"]
    assert ready["inputs"] == {"age": "value", "nickname": "value", "plan": "value", "contact": "value",
                               "address": "value", "tags": "value", "save": "tap"}
    return ws


def refused(ws, message):
    ws.send_json(message)
    answer = ws.receive_json()
    assert answer.get("error", {}).get("code") == "bad_value", (message, answer)
    return answer["error"]["message"]


@pytest.mark.parametrize("input_name, value, expected", [
    ("age", 17, ("ageValidation", {"failed": {"message": "You must be 18 or older"}})),
    ("age", 30, ("ageValidation", {"ok": {"message": "Age accepted"}})),
    ("nickname", None, ("greeting", "Hello!")),
    ("nickname", "Ada", ("greeting", "Hello, Ada!")),
    ("tags", ["swift", "rx"], ("tagCount", 2)),
    ("tags", [], ("tagCount", 0)),
])
def test_every_kind_of_value_reaches_a_view_model_declared_outside_the_repository(server, input_name, value, expected):
    ws = profile_session(server)
    ws.send_json({"input": input_name, "value": value})
    assert outputs(ws, 1) == [expected]
    ws.close()


def test_enums_structs_and_optionals_come_back_in_a_struct(server):
    ws = profile_session(server)
    for message in [{"input": "age", "value": 40}, {"input": "plan", "value": "pro"},
                    {"input": "contact", "value": {"phone": {"country": 44, "number": "20 7946 0000"}}},
                    {"input": "address", "value": {"city": "Paris"}}, {"input": "tags", "value": ["a/b"]}]:
        ws.send_json(message)
    assert dict(outputs(ws, 2)) == {"ageValidation": {"ok": {"message": "Age accepted"}}, "tagCount": 1}
    ws.send_json({"input": "save"})
    assert outputs(ws, 1) == [("summary", {"age": 40, "city": "Paris", "contact": {"phone": {"country": 44, "number": "20 7946 0000"}},
                                           "plan": "pro", "tags": ["a/b"]})]
    # An optional struct set to null, an enum case without values.
    ws.send_json({"input": "address", "value": None})
    ws.send_json({"input": "contact", "value": {"none": {}}})
    ws.send_json({"input": "save"})
    assert outputs(ws, 1) == [("summary", {"age": 40, "contact": {"none": {}}, "plan": "pro", "tags": ["a/b"]})]
    ws.close()


def test_values_that_do_not_decode_are_refused_naming_the_input_and_type_and_change_nothing(server):
    ws = profile_session(server)
    for message in [{"input": "age", "value": 30}, {"input": "plan", "value": "free"},
                    {"input": "contact", "value": {"email": {"_0": "ada@example.com"}}}, {"input": "tags", "value": []}]:
        ws.send_json(message)
    outputs(ws, 2)
    assert '"age" expects Int' in refused(ws, {"input": "age", "value": "thirty"})
    refused(ws, {"input": "age", "value": 30.5})
    refused(ws, {"input": "age", "value": None})
    assert '"plan" expects Plan' in refused(ws, {"input": "plan", "value": "gold"})
    assert '"address" expects Address?: missing key "city"' in refused(ws, {"input": "address", "value": {"zip": "75001"}})
    assert "at phone.country" in refused(ws, {"input": "contact", "value": {"phone": {"country": "44", "number": "1"}}})
    refused(ws, {"input": "tags", "value": ["a", 1]})
    assert '"age" needs a "value"' in refused(ws, {"input": "age"})
    refused(ws, {"input": "save", "value": 1})
    # The session goes on, with the values it had.
    ws.send_json({"input": "save"})
    assert outputs(ws, 1) == [("summary", {"age": 30, "contact": {"email": {"_0": "ada@example.com"}}, "plan": "free", "tags": []})]
    ws.close()
