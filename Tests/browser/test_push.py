# SPDX-License-Identifier: Apache-2.0
"""Web Push in a real browser: More's opt-in (shown only where the script finds the Push
API, never a prompt on load; hidden with JavaScript off), the subscription posted to the
server with the page's token, and the service worker's push handler showing the
notification a Declarative Web Push message describes.

Chromium's own push service (FCM) cannot be reached from the test machines, so
`PushManager.subscribe` is replaced in the page by one that answers with a subscription
to a loopback endpoint; everything after it (the post, the server's checks and storage,
the worker's handler, fed through the DevTools protocol's `deliverPushMessage`) is real.
A changed subscription (`pushsubscriptionchange`) is fired in the worker through its own
DevTools target.
"""

from __future__ import annotations

import base64
import json
import time
import urllib.request

import pytest
import websocket
from axe_selenium_python import Axe
from selenium.common.exceptions import WebDriverException
from selenium.webdriver.common.by import By

from conftest import running_server


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).decode().rstrip("=")


# A browser's P-256 key (the point of RFC 8291's example receiver) and a secret.
P256DH = "BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4"
AUTH = "BTBZMqHH6r4Tts7J_aSIgg"


@pytest.fixture(scope="module")
def push_server(tmp_path_factory):
    key = tmp_path_factory.mktemp("vapid") / "vapid.pem"
    with running_server("--vapid-key", str(key), "--push-allow-loopback", "on", "--metrics", "on") as srv:
        yield srv


def _stub_push_manager(browser, endpoint: str) -> None:
    browser.run("""
      const [endpoint, p256dh, auth] = arguments;
      const subscription = {
        endpoint,
        toJSON: () => ({ endpoint, expirationTime: null, keys: { p256dh, auth } }),
        unsubscribe: async () => { window.__subscribed = null; return true; },
      };
      window.__subscribed = null;
      PushManager.prototype.subscribe = async function (options) {
        window.__options = { userVisibleOnly: options.userVisibleOnly, key: options.applicationServerKey.byteLength };
        window.__subscribed = subscription;
        return subscription;
      };
      PushManager.prototype.getSubscription = async function () { return window.__subscribed; };
    """, endpoint, P256DH, AUTH)


def _metric(srv, name: str) -> str:
    with urllib.request.urlopen(srv.url("/metrics"), timeout=5) as answer:
        text = answer.read().decode()
    return next((line for line in text.splitlines() if line.startswith(name)), "")


def test_the_opt_in_subscribes_only_when_asked(browsers_for, push_server):
    browser = browsers_for(push_server).open("phone")
    browser.get("/more")
    section = browser.driver.find_element(By.CSS_SELECTOR, ".push-optin")
    browser.wait(lambda: section.is_displayed(), "the opt-in did not show with the Push API there")
    # Nothing was asked on load.
    assert browser.run("return Notification.permission") == "default"
    _stub_push_manager(browser, "https://127.0.0.1:9/push/device-1")
    browser.driver.find_element(By.CSS_SELECTOR, "#push-notifications").click()
    browser.tap_css(".push-optin .push-on")
    status = browser.driver.find_element(By.CSS_SELECTOR, ".push-status")
    browser.wait(lambda: status.text == "On for this device.", "the subscription was not taken")
    assert browser.run("return window.__options") == {"userVisibleOnly": True, "key": 65}
    assert _metric(push_server, 'tabserver_push_subscriptions_total{change="subscribed"}').endswith(" 1")
    browser.tap_css(".push-optin .push-off")
    browser.wait(lambda: status.text == "Off for this device.", "the subscription was not dropped")
    assert _metric(push_server, 'tabserver_push_subscriptions_total{change="unsubscribed"}').endswith(" 1")


def test_without_javascript_the_opt_in_stays_hidden(browsers_for, push_server):
    browser = browsers_for(push_server).open("phone", js=False)
    browser.get("/more")
    assert not browser.driver.find_element(By.CSS_SELECTOR, ".push-optin").is_displayed()


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_more_with_the_opt_in_has_no_axe_violations(browsers_for, push_server, scheme):
    browser = browsers_for(push_server).open("phone")
    browser.color_scheme(scheme)
    browser.get("/more")
    section = browser.driver.find_element(By.CSS_SELECTOR, ".push-optin")
    browser.wait(lambda: section.is_displayed(), "the opt-in did not show")
    axe = Axe(browser.driver)
    axe.inject()
    violations = axe.run()["violations"]
    assert not violations, json.dumps(violations, indent=1)[:3000]


def test_the_workers_push_handler_shows_the_declarative_notification(browsers_for, push_server):
    browser = browsers_for(push_server).open("phone")
    driver = browser.driver
    browser.get("/more")
    browser.wait(lambda: browser.run("""return navigator.serviceWorker.getRegistration()
                     .then((r) => !!(r && r.active && r.active.state === "activated"));"""),
                 "the service worker did not start")
    origin = push_server.url("")
    driver.execute_cdp_cmd("Browser.grantPermissions", {"origin": origin, "permissions": ["notifications"]})
    driver.execute_cdp_cmd("ServiceWorker.enable", {})
    registration = browser.run("return navigator.serviceWorker.getRegistration().then((r) => r && r.scope)")
    assert registration
    # The worker runs as a target of its own.
    targets = driver.execute_cdp_cmd("Target.getTargets", {})["targetInfos"]
    assert any(t["type"] == "service_worker" for t in targets)
    message = {"app_badge": 4, "web_push": 8030, "notification": {
        "title": "New episode", "body": "Episode 12 is out", "navigate": push_server.url("/tabs/podcasts"),
        "app_badge": "4", "tag": "episodes"}}

    def deliver() -> None:
        # Chromium numbers registrations itself and takes a message for an id that is
        # not this origin's without a word (it is dropped), so every low id gets it; a
        # worker still activating drops it too, so it is sent again until one shows.
        # The notification's tag makes a repeat replace, not add, a notification.
        for registration_id in range(8):
            try:
                driver.execute_cdp_cmd("ServiceWorker.deliverPushMessage", {
                    "origin": origin, "registrationId": str(registration_id), "data": json.dumps(message)})
            except WebDriverException:  # an id Chromium refuses outright: the next one is tried
                continue

    notes = lambda: browser.run("""return navigator.serviceWorker.getRegistration()
        .then((r) => r.getNotifications()).then((list) => list.map((n) => [n.title, n.body, n.tag]));""")

    sent = [0.0]

    def shown() -> list:
        if time.monotonic() - sent[0] > 1:
            deliver()
            sent[0] = time.monotonic()
        return notes()

    browser.wait(lambda: shown() == [["New episode", "Episode 12 is out", "episodes"]], "no notification was shown")


def _in_worker(driver, expression: str):
    """Evaluates `expression` in the service worker (its own DevTools target, reached over
    the browser's debugging socket: chromedriver's CDP commands go to the page)."""
    address = driver.capabilities["goog:chromeOptions"]["debuggerAddress"]
    with urllib.request.urlopen(f"http://{address}/json/list", timeout=5) as answer:
        targets = json.load(answer)
    worker = next(t for t in targets if t["type"] == "service_worker" and t["url"].endswith("/sw.js"))
    socket = websocket.create_connection(worker["webSocketDebuggerUrl"], timeout=10, suppress_origin=True)
    try:
        socket.send(json.dumps({"id": 1, "method": "Runtime.evaluate",
                                "params": {"expression": expression, "awaitPromise": True, "returnByValue": True}}))
        while True:
            reply = json.loads(socket.recv())
            if reply.get("id") == 1:
                return reply
    finally:
        socket.close()


def test_a_subscription_the_browser_changes_is_replaced_on_the_server(browsers_for, push_server):
    """`pushsubscriptionchange`, fired in the worker as the browser would fire it (the
    browser fires it only on its push service's word): the worker posts the new
    subscription with the endpoint it replaces, and the server keeps it in its place."""
    browser = browsers_for(push_server).open("phone")
    browser.get("/more")
    section = browser.driver.find_element(By.CSS_SELECTOR, ".push-optin")
    browser.wait(lambda: section.is_displayed(), "the opt-in did not show")
    browser.wait(lambda: browser.run("""return navigator.serviceWorker.getRegistration()
                     .then((r) => !!(r && r.active && r.active.state === "activated"));"""),
                 "the service worker did not start")
    _stub_push_manager(browser, "https://127.0.0.1:9/push/rotated-1")
    browser.tap_css(".push-optin .push-on")
    status = browser.driver.find_element(By.CSS_SELECTOR, ".push-status")
    browser.wait(lambda: status.text == "On for this device.", "the subscription was not taken")
    replaced = lambda: _metric(push_server, 'tabserver_push_subscriptions_total{change="replaced"}').split(" ")[-1]
    before = int(replaced())

    def fire(old: str | None, new: str) -> None:
        # A script's event cannot be waited on (waitUntil throws for it); the handler's
        # work goes on all the same, and the server's count says when it is done.
        reply = _in_worker(browser.driver, """
          (() => {
            const [oldEndpoint, newEndpoint, p256dh, auth] = %s;
            const subscription = (endpoint) => endpoint && {
              endpoint, toJSON: () => ({ endpoint, expirationTime: null, keys: { p256dh, auth } }) };
            const event = new ExtendableEvent("pushsubscriptionchange");
            Object.defineProperty(event, "oldSubscription", { value: subscription(oldEndpoint) });
            Object.defineProperty(event, "newSubscription", { value: subscription(newEndpoint) });
            self.dispatchEvent(event);
            return true;
          })()""" % json.dumps([old, new, P256DH, AUTH]))
        assert reply.get("result", {}).get("result", {}).get("value") is True, reply

    # Chromium does not say which subscription changed: the endpoint the opt-in kept is used.
    fire(None, "https://127.0.0.1:9/push/rotated-2")
    browser.wait(lambda: int(replaced()) == before + 1, "the new subscription did not replace the kept one")
    # A browser that says so; the endpoint replaced is the one posted just now.
    fire("https://127.0.0.1:9/push/rotated-2", "https://127.0.0.1:9/push/rotated-3")
    browser.wait(lambda: int(replaced()) == before + 2, "the second change was not taken")
    kept = browser.run("""return caches.open("tabserver-push").then((c) => c.match(arguments[0]))
                          .then((r) => r && r.text());""", push_server.url("/push/endpoint"))
    assert kept == "https://127.0.0.1:9/push/rotated-3"
