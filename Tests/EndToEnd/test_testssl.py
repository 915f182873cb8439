"""testssl.sh (Debian's `testssl.sh`) grades rxlive's TLS on 127.0.0.1 and finds nothing at MEDIUM or above.

Checks run, to stay within a minute or two: -p (protocols), -s (cipher categories), -f (forward
secrecy), -P (the server's protocol and cipher picks, and its cipher order), -S (certificate and
server defaults), -h (HTTP headers: HSTS and the others) and -U (every vulnerability check).
Left out: -E/-e (each of OpenSSL's ciphers tried one by one, minutes: -s and -f already show
that only AEAD suites with forward secrecy are offered) and -c (client simulation, a list of
what browsers would pick). No DNS look-ups and no contact with OCSP or CRL servers.

The certificate is made for the test as a real one would be made, so that testssl grades the
server and not the test's shortcuts: issued by a CA the scan is told to trust (--add-ca), valid
for a year (expiry within 60 days is a finding), with a CRL address (a certificate with
neither a CRL nor an OCSP address is a HIGH finding)."""
import json
import os
import shutil
import subprocess

import pytest

from support import REPO, ServerProcess, free_port

pytestmark = pytest.mark.slow  # testssl.sh, minutes

TESTSSL = os.environ.get("RXLIVE_TESTSSL", "/usr/bin/testssl")
CHECKS = ["-p", "-s", "-f", "-P", "-S", "-h", "-U"]
FAILING = {"MEDIUM", "HIGH", "CRITICAL"}


def openssl(*args, cwd):
    subprocess.run(["openssl", *args], cwd=cwd, check=True, capture_output=True)


@pytest.fixture
def certificate(tmp_path):
    openssl("req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-keyout", "ca.key",
            "-out", "ca.pem", "-days", "400", "-subj", "/CN=RxLive testssl CA",
            "-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign,cRLSign", cwd=tmp_path)
    openssl("req", "-x509", "-CA", "ca.pem", "-CAkey", "ca.key", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256",
            "-nodes", "-keyout", "server.key", "-out", "server.pem", "-days", "365", "-subj", "/CN=localhost",
            "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1", "-addext", "extendedKeyUsage=serverAuth",
            "-addext", "basicConstraints=critical,CA:FALSE",
            "-addext", "crlDistributionPoints=URI:http://127.0.0.1/rxlive-test.crl", cwd=tmp_path)
    os.chmod(tmp_path / "server.key", 0o600)
    return tmp_path


def test_testssl_finds_nothing_at_medium_or_above(certificate, tmp_path):
    if not shutil.which(TESTSSL):
        pytest.fail(f"{TESTSSL} is missing: install Debian's testssl.sh (scripts/setup test)")
    port = free_port()
    args = ["--host", "127.0.0.1", "--port", str(port), "--public", str(REPO / "Public"),
            "--tls-cert", str(certificate / "server.pem"), "--tls-key", str(certificate / "server.key")]
    report = tmp_path / "testssl.json"
    with ServerProcess("rxlive", args, port, ready_path=None):
        scan = subprocess.run([TESTSSL, "--quiet", "--color", "0", "--warnings", "off", "--nodns", "none",
                               "--add-ca", str(certificate / "ca.pem"), "--ip", "127.0.0.1", "--jsonfile", str(report),
                               *CHECKS, f"localhost:{port}"],
                              capture_output=True, text=True, timeout=600, cwd=tmp_path)
    findings = json.loads(report.read_text())
    by_id = {finding["id"]: finding for finding in findings}
    # The scan ran to the end and saw the server: not a pass by having checked nothing.
    assert "scanProblem" not in by_id, (by_id["scanProblem"], scan.stdout[-3000:])
    assert by_id["TLS1_3"]["finding"] == "offered with final", scan.stdout[-3000:]
    assert by_id["HSTS_time"]["severity"] == "OK", by_id["HSTS_time"]
    assert by_id["cipher_order"]["severity"] == "OK", by_id["cipher_order"]  # it was HIGH with the client's order
    assert len([finding for finding in findings if finding["id"].startswith(("heartbleed", "ROBOT", "LUCKY13"))]) == 3
    bad = [f"{finding['severity']} {finding['id']}: {finding['finding']}" for finding in findings
           if finding["severity"] in FAILING]
    assert not bad, "testssl.sh findings at MEDIUM or above:\n" + "\n".join(bad)
