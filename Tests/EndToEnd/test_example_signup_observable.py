"""End-to-end: the sign-up example's second view model (Examples/SignUp,
ObservableSignUpViewModel), written with plain Observables, share(replay: 1) and observe(on:)
instead of Drivers, served at /ws/signup-observable beside the Driver one and bound by the
page observable.html. It must answer exactly as the Driver version does."""
import pytest

from selenium.webdriver.common.by import By

import support
from raw_websocket import RawWebSocket
from test_browser import assert_no_console_errors, browser, wait_until  # noqa: F401 (fixture)
from test_example_signup import FIRST_VALUES, by_output, outputs, websocat_session

PATH = "/ws/signup-observable"


pytestmark = pytest.mark.slow  # the example's build, and Chromium

@pytest.fixture
def server():
    process = support.start_example("SignUp", "signup-server")
    yield process
    assert process.stop() == 0


def test_it_is_served_beside_the_driver_version_with_the_same_inputs_and_outputs(server):
    observable, driver = RawWebSocket(server.port, PATH), RawWebSocket(server.port, "/ws/signup")
    mine, theirs = observable.receive_json()["ready"], driver.receive_json()["ready"]
    assert mine["viewModel"] == "signup-observable" and theirs["viewModel"] == "signup"
    assert (mine["inputs"], mine["outputs"]) == (theirs["inputs"], theirs["outputs"])
    # Refused input is a clear error here too, and the session goes on.
    assert sorted(outputs(observable, 5)) == sorted((m["output"], m["value"]) for m in FIRST_VALUES)
    observable.send_json({"input": "username", "value": 5})
    assert observable.receive_json()["error"]["code"] == "bad_value"
    observable.send_json({"input": "username", "value": "ada"})
    assert outputs(observable, 1) == [("validatedUsername", {"validating": {}})]
    observable.close()
    driver.close()


def test_a_websocat_session_that_sends_nothing_sees_the_first_values_validated(server):
    assert by_output(websocat_session(server.port, [], path=PATH)) == by_output(FIRST_VALUES)


@pytest.mark.parametrize("username", ["ada", "grace"])
def test_a_websocat_session_gets_what_the_driver_version_gives(server, username):
    """Same script, both view models: the same messages (their order may differ: the
    indicator and the validations run on their own). "grace" signs up on the first run
    only, so each view model gets a name of its own."""
    def script(name):
        return [{"input": "username", "value": name}, {"input": "password", "value": "secret1"},
                {"input": "repeatedPassword", "value": "secret2"}, {"input": "repeatedPassword", "value": "secret1"},
                {"input": "signUp"}]
    suffix = "" if username == "ada" else "2"
    mine = websocat_session(server.port, script(username + suffix), seconds=1.5, path=PATH)
    theirs = websocat_session(server.port, script(username), seconds=1.5)
    assert by_output(mine) == by_output(theirs), (mine, theirs)
    assert {"output": "signedUp", "value": username != "ada"} in mine


def test_chromium_fills_the_observable_page(server, browser):
    """observable.html, bound only by attributes through /rxlive.js, to the plain-Observable view model."""
    driver = browser
    driver.get(f"http://127.0.0.1:{server.port}/observable.html")
    field = lambda element_id: driver.find_element(By.ID, element_id)  # noqa: E731
    assert field("signup").get_attribute("data-rx-view") == "signup-observable"
    wait_until(driver, "the form is live", lambda: field("status").get_attribute("data-state") == "live")
    wait_until(driver, "the first values are shown", lambda: field("username-message").get_attribute("data-case") == "empty")
    field("username").send_keys("ada")
    wait_until(driver, "ada is taken", lambda: field("username-message").text == "Username already taken")
    field("username").send_keys("byron")
    wait_until(driver, "the new name is free", lambda: field("username-message").text == "Username available")
    field("password").send_keys("secret1")
    field("repeated").send_keys("secret1")
    wait_until(driver, "the button is enabled", lambda: field("signup-button").is_enabled())
    field("signup-button").click()
    wait_until(driver, "signed up", lambda: field("signed-up").is_displayed())
    assert_no_console_errors(driver)
