"""End-to-end: the calculator example (Examples/Calculator), a separate package on RxLive
built by scripts/test, driven over a real socket and in Chromium. Its state is not
Encodable (sent through a mapping); its typed keys are decoded by a closure."""
import pytest

from selenium.webdriver.common.by import By

import support
from raw_websocket import RawWebSocket
from test_browser import assert_no_console_errors, browser, wait_until  # noqa: F401 (fixture)



pytestmark = pytest.mark.slow  # the example's build, and Chromium

@pytest.fixture
def server():
    process = support.start_example("Calculator", "calculator-server")
    yield process
    assert process.stop() == 0


def next_output(ws, name):
    """The value of the next `name` output, skipping the other output."""
    for _ in range(10):
        message = ws.receive_json()
        assert "output" in message, message
        if message["output"] == name:
            return message["value"]
    raise AssertionError(f"no {name} output in 10 messages")


def test_typed_keys_and_taps_compute_and_the_state_is_sent_through_its_mapping(server):
    ws = RawWebSocket(server.port, "/ws/calculator")
    ready = ws.receive_json()["ready"]
    assert ready["outputs"] == ["display", "state"]
    assert ready["inputs"]["key"] == "value" and ready["inputs"]["digit7"] == "tap"
    assert next_output(ws, "state") == {"display": "0", "pending": ""}
    for key in ("1", "2"):
        ws.send_json({"input": "key", "value": key})
    ws.send_json({"input": "multiply"})
    assert next_output(ws, "state") == {"display": "1", "pending": ""}
    assert next_output(ws, "state") == {"display": "12", "pending": ""}
    assert next_output(ws, "state") == {"display": "12", "pending": "12 ×"}
    ws.send_json({"input": "digit3"})
    ws.send_json({"input": "key", "value": "="})
    assert next_output(ws, "display") == "3"
    assert next_output(ws, "display") == "36"
    assert next_output(ws, "state") == {"display": "36", "pending": ""}
    ws.close()


def test_a_key_the_decoding_closure_refuses_is_bad_value_and_changes_nothing(server):
    ws = RawWebSocket(server.port, "/ws/calculator")
    ws.receive_json()
    assert next_output(ws, "state") == {"display": "0", "pending": ""}
    ws.send_json({"input": "key", "value": "x"})
    refused = ws.receive_json()
    assert refused["error"]["code"] == "bad_value", refused
    assert "no key" in refused["error"]["message"], refused
    ws.send_json({"input": "key", "value": 7})
    assert ws.receive_json()["error"]["code"] == "bad_value"
    ws.send_json({"input": "key", "value": "4"})
    assert next_output(ws, "display") == "4"
    ws.close()


def test_chromium_presses_the_example_keys(server, browser):
    """The example's page, bound only by attributes through /rxlive.js, in headless Chromium."""
    driver = browser
    driver.get(f"http://127.0.0.1:{server.port}/")
    element = lambda element_id: driver.find_element(By.ID, element_id)  # noqa: E731
    wait_until(driver, "the calculator is live", lambda: element("status").get_attribute("data-state") == "live")
    for key in ("1", "2", "multiply"):
        element(f"key-{key}").click()
    wait_until(driver, "12 × is pending", lambda: element("pending").text == "12 ×")
    for key in ("3", "equals"):
        element(f"key-{key}").click()
    wait_until(driver, "the product", lambda: element("display").text == "36" and element("pending").text == "")
    for key in ("divide", "0", "equals"):
        element(f"key-{key}").click()
    wait_until(driver, "division by zero", lambda: element("display").text == "Error")
    element("key-clear").click()
    wait_until(driver, "cleared", lambda: element("display").text == "0")
    assert_no_console_errors(driver)
