"""The client-message fuzz corpus replayed against a second JSON oracle, Python's `json`.

The fuzz target (Fuzz/Sources/fuzz-client-message) checks every message the reader accepts
against Foundation's JSONSerialization while it fuzzes; here the seeds and the corpus a fuzz
run grew (scripts/fuzz, which `make test` runs before pytest) go through the same reader
once more, and every accepted message must be a JSON object to `json.loads` whose input and
value are what the reader read.
"""
import json
import os
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
TARGET = ROOT / ".build-fuzz" / "debug" / "fuzz-client-message"
WORK = Path(os.environ.get("FUZZ_WORK", ROOT / ".build-fuzz" / "work"))
CORPORA = [ROOT / "Fuzz" / "Corpus" / "client-message", WORK / "corpus" / "client-message"]


@pytest.fixture(scope="module")
def accepted(tmp_path_factory):
    if not TARGET.exists():
        pytest.skip("no fuzz build: scripts/fuzz (run by make test) builds .build-fuzz")
    out = tmp_path_factory.mktemp("accepted")
    corpora = [str(path) for path in CORPORA if path.is_dir()]
    # -runs=0: execute every corpus input once, then stop.
    subprocess.run([str(TARGET), "-runs=0", *corpora], env={**os.environ, "FUZZ_ACCEPTED_DIR": str(out)},
                   check=True, capture_output=True, timeout=300)
    return sorted(out.glob("*.json"))


def test_every_accepted_message_is_json_to_python(accepted):
    # Seven of the eight seeds are well-formed (m5 repeats "input").
    assert len(accepted) >= 7, "the replay accepted fewer messages than the seeds hold"
    for path in accepted:
        text = path.read_bytes().decode("utf-8")
        try:
            message = json.loads(text)
        except ValueError as error:
            pytest.fail(f"{path.name}: accepted by the reader, refused by json: {error}: {text[:200]!r}")
        assert isinstance(message, dict), path.name
        assert set(message) <= {"input", "value"}, path.name
        assert message["input"] == path.with_suffix(".input").read_bytes().decode("utf-8"), path.name
        string, value = path.with_suffix(".string"), path.with_suffix(".value")
        if string.exists():
            assert message["value"] == string.read_bytes().decode("utf-8"), path.name
        elif value.exists():
            kept = json.loads(value.read_bytes().decode("utf-8"))
            assert not isinstance(message["value"], str) and kept == message["value"], path.name
        else:
            assert "value" not in message, path.name
