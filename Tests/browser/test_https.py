# SPDX-License-Identifier: Apache-2.0
"""HTTPS served by TabServer itself, in Chromium, on a name that is not localhost:
`tabserver.test` mapped to 127.0.0.1 by Chromium's host resolver rules, the
certificate signed by a CA made here with openssl and trusted the way Chromium on Linux
trusts one (an NSS database in $HOME/.pki/nssdb, written with certutil). There the page
is a secure context: the service worker registers, the app is installable (0 errors),
the session cookie is Secure, and the plain redirect port sends the browser to HTTPS.
"""

from __future__ import annotations

import os
import shutil
import socket
import ssl
import subprocess
import time
from pathlib import Path

import pytest
from selenium import webdriver
from selenium.webdriver.chrome.service import Service

from conftest import CHROMEDRIVER, CHROMIUM, ROOT, _free_port, server_binary

HOST = "tabserver.test"

pytestmark = pytest.mark.skipif(shutil.which("certutil") is None, reason="certutil (libnss3-tools) is not installed")

# The page is controlled by the service worker: its scope, once `ready`.
_CONTROLLED = """
const done = arguments[arguments.length - 1];
navigator.serviceWorker.ready.then((registration) => {
  const check = () => navigator.serviceWorker.controller
    ? done({scope: registration.scope, secure: window.isSecureContext})
    : setTimeout(check, 50);
  check();
}).catch((error) => done({error: String(error)}));
"""


def _openssl(*args: str) -> None:
    subprocess.run(["openssl", *args], check=True, capture_output=True, timeout=60)


def _make_certificates(directory: Path) -> tuple[Path, Path, Path]:
    """A CA, and a certificate for tabserver.test it signed (the chain, the key)."""
    ec = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
    _openssl("req", "-x509", *ec, "-keyout", str(directory / "ca.key"), "-out", str(directory / "ca.pem"),
             "-subj", "/CN=TabServer browser test CA", "-days", "2",
             "-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign,cRLSign")
    _openssl("req", *ec, "-keyout", str(directory / "server.key"), "-out", str(directory / "server.csr"),
             "-subj", f"/CN={HOST}")
    (directory / "leaf.ext").write_text(
        f"subjectAltName=DNS:{HOST}\nextendedKeyUsage=serverAuth\nbasicConstraints=critical,CA:FALSE\n")
    _openssl("x509", "-req", "-in", str(directory / "server.csr"), "-CA", str(directory / "ca.pem"),
             "-CAkey", str(directory / "ca.key"), "-CAcreateserial", "-days", "2",
             "-extfile", str(directory / "leaf.ext"), "-out", str(directory / "leaf.pem"))
    chain = directory / "chain.pem"
    chain.write_text((directory / "leaf.pem").read_text() + (directory / "ca.pem").read_text())
    return directory / "ca.pem", chain, directory / "server.key"


def _trust(home: Path, ca: Path) -> None:
    """Chromium's NSS database under `home`, trusting `ca` for TLS servers."""
    nssdb = home / ".pki" / "nssdb"
    nssdb.mkdir(parents=True)
    subprocess.run(["certutil", "-N", "-d", f"sql:{nssdb}", "--empty-password"], check=True, capture_output=True)
    subprocess.run(["certutil", "-A", "-d", f"sql:{nssdb}", "-n", "TabServer test CA", "-t", "C,,",
                    "-i", str(ca)], check=True, capture_output=True)


class _TLSServer:
    def __init__(self, chain: Path, key: Path, ca: Path):
        self.port, self.redirect_port = _free_port(), _free_port()
        self.log = open(os.devnull, "wb")
        self.process = subprocess.Popen(
            [str(server_binary()), "--host", "127.0.0.1", "--port", str(self.port), "--sessions", "memory",
             "--access-log", "off", "--tls-certificate", str(chain), "--tls-key", str(key),
             "--redirect-http-port", str(self.redirect_port)],
            cwd=ROOT, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        context = ssl.create_default_context(cafile=str(ca))
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and self.process.poll() is None:
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=1) as raw:
                    with context.wrap_socket(raw, server_hostname=HOST) as tls:
                        tls.sendall(f"GET /healthz HTTP/1.1\r\nHost: {HOST}\r\nConnection: close\r\n\r\n".encode())
                        if tls.recv(64).startswith(b"HTTP/1.1 200"):
                            return
            except OSError:
                time.sleep(0.1)
        output = self.process.stdout.read(4000) if self.process.poll() is not None else b""
        self.stop()
        raise RuntimeError(f"the TLS server did not become healthy: {output!r}")

    def url(self, path: str) -> str:
        return f"https://{HOST}:{self.port}{path}"

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()  # this pid only
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=5)


@pytest.fixture(scope="module")
def https_setup(tmp_path_factory):
    directory = tmp_path_factory.mktemp("https")
    ca, chain, key = _make_certificates(directory)
    home = directory / "home"
    _trust(home, ca)
    server = _TLSServer(chain, key, ca)
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for argument in (
        "--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu", "--no-first-run",
        "--no-default-browser-check", "--disable-extensions", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--password-store=basic", "--use-mock-keychain",
        "--disable-breakpad", "--window-size=390,844", f"--user-data-dir={directory / 'profile'}",
        f"--host-resolver-rules=MAP {HOST} 127.0.0.1",
    ):
        options.add_argument(argument)
    options.add_experimental_option("mobileEmulation", {
        "deviceMetrics": {"width": 390, "height": 844, "pixelRatio": 3, "touch": True, "mobile": True}})
    # Chromium reads the NSS database of the HOME it runs with (chromedriver passes it on).
    service = Service(executable_path=CHROMEDRIVER, log_output=subprocess.DEVNULL,
                      env={**os.environ, "HOME": str(home)})
    driver = webdriver.Chrome(options=options, service=service)
    driver.set_page_load_timeout(30)
    driver.set_script_timeout(60)
    try:
        yield server, driver
    finally:
        try:
            driver.quit()
        finally:
            server.stop()


def test_plain_port_redirects_the_browser_to_https(https_setup):
    server, driver = https_setup
    driver.get(f"http://{HOST}:{server.redirect_port}/tabs/music?from=http")
    assert driver.current_url == server.url("/tabs/music?from=http")
    assert driver.execute_script("return document.querySelector('nav.tab-bar') !== null")


def test_secure_context_service_worker_installable_secure_cookie(https_setup):
    server, driver = https_setup
    driver.get(server.url("/tabs/featured"))
    # A certificate error would show Chromium's interstitial instead of the app.
    assert driver.execute_script("return window.isSecureContext && location.protocol") == "https:"
    assert driver.execute_script("return document.querySelector('nav.tab-bar') !== null")

    # The worker claims the page once it activates; under load that can come after the
    # first check gives up, so a page loaded after activation is asked too.
    active = driver.execute_async_script("""const done = arguments[arguments.length - 1];
        navigator.serviceWorker.ready.then(() => done(true)).catch((error) => done(String(error)));""")
    assert active is True, active
    if not driver.execute_script("return !!navigator.serviceWorker.controller"):
        driver.refresh()
    controlled = driver.execute_async_script(_CONTROLLED)
    assert controlled.get("error") is None, controlled
    assert controlled == {"scope": server.url("/"), "secure": True}

    errors = driver.execute_cdp_cmd("Page.getInstallabilityErrors", {})
    assert errors["installabilityErrors"] == [], errors

    # A tab other than the first stores a session: its cookie is Secure over TLS.
    driver.get(server.url("/tabs/music"))
    cookies = driver.execute_cdp_cmd("Network.getCookies", {"urls": [server.url("/")]})["cookies"]
    session = [cookie for cookie in cookies if cookie["name"] == "tabserver_session"]
    assert session, cookies
    assert session[0]["secure"] is True and session[0]["httpOnly"] is True, session
