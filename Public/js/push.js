/* SPDX-License-Identifier: Apache-2.0 */
// The opt-in for badges while the app is closed (Web Push), on the More page only.
// Optional like every script: without it (or without the Push API) the section stays
// hidden. Nothing is asked on load: the browser's permission prompt comes only from a
// tap on "Turn on". The subscription goes to the server as JSON with the page's token.
(() => {
  "use strict";
  const section = document.querySelector(".push-optin");
  if (!section || !("serviceWorker" in navigator) || !("PushManager" in window)) return;
  const on = section.querySelector(".push-on");
  const off = section.querySelector(".push-off");
  const box = section.querySelector("#push-notifications");
  const status = section.querySelector(".push-status");
  const say = (key) => { status.textContent = status.dataset[key] || ""; };
  const show = (subscribed) => { on.hidden = subscribed; off.hidden = !subscribed; };

  const key = Uint8Array.from(atob(section.dataset.key.replace(/-/g, "+").replace(/_/g, "/")), (c) => c.charCodeAt(0));
  // The endpoint posted last, where the worker looks for it when the browser changes the
  // subscription without saying which one it was (sw.js, pushsubscriptionchange).
  const endpointKey = section.dataset.subscribe.replace(/subscribe$/, "endpoint");
  const keepEndpoint = (endpoint) => caches.open("tabserver-push")
    .then((kept) => (endpoint ? kept.put(endpointKey, new Response(endpoint)) : kept.delete(endpointKey)))
    .catch(() => {});
  const post = (url, body) => fetch(url, {
    method: "POST", credentials: "same-origin",
    headers: { "Content-Type": "application/json", "X-CSRF-Token": section.dataset.csrf },
    body: JSON.stringify(body),
  }).then(async (response) => {
    if (!response.ok) throw new Error(String(response.status));
    // Subscribing may have made the visitor's session, with a token of its own: every
    // form of the page takes it.
    const answer = response.status === 200 ? await response.json().catch(() => ({})) : {};
    if (typeof answer.csrf === "string") {
      section.dataset.csrf = answer.csrf;
      for (const field of document.querySelectorAll('input[name="csrf"]')) field.value = answer.csrf;
    }
  });

  // The worker install.js registers (none when it is off on the server: then no push
  // either, and the section stays hidden).
  const scope = new URL(section.dataset.subscribe.replace(/push\/subscribe$/, ""), location.href).href;
  navigator.serviceWorker.getRegistration(scope).then((found) => found || navigator.serviceWorker.ready).then(async (registration) => {
    if (!registration || !registration.pushManager) return;
    const current = await registration.pushManager.getSubscription().catch(() => null);
    show(Boolean(current));
    if (current) say("on");

    on.addEventListener("click", async () => {
      on.disabled = true;
      try {
        const subscription = await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: key });
        await post(section.dataset.subscribe, { ...subscription.toJSON(), notifications: box.checked });
        await keepEndpoint(subscription.endpoint);
        show(true);
        say("on");
      } catch (error) {
        say(window.Notification && Notification.permission === "denied" ? "denied" : "failed");
      } finally {
        on.disabled = false;
      }
    });

    off.addEventListener("click", async () => {
      off.disabled = true;
      try {
        const subscription = await registration.pushManager.getSubscription();
        if (subscription) {
          await post(section.dataset.unsubscribe, { endpoint: subscription.endpoint });
          await subscription.unsubscribe();
          await keepEndpoint(null);
        }
        show(false);
        say("off");
      } catch (error) {
        say("failed");
      } finally {
        off.disabled = false;
      }
    });
    // Shown only now that its buttons answer: a tap before would do nothing.
    section.hidden = false;
  }).catch(() => {});
})();
