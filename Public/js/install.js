/* SPDX-License-Identifier: Apache-2.0 */
// Optional enhancement for the app as installed: everything works without this file.
// - Registers the service worker (sw.js, scoped to the base path) that keeps the shell
//   and each tab's last page for offline use; when the server has it turned off (no
//   data-worker on this script's tag), removes one an earlier visit registered.
// - Shows the sum of the bar's count badges on the app's icon (the App Badging API),
//   following every change of the bar: a tab switch, a live badge event (live.js).
(() => {
  "use strict";
  const tag = document.currentScript;
  if (!tag) return;
  const scope = tag.dataset.scope || "/";

  if ("serviceWorker" in navigator) {
    const worker = tag.dataset.worker;
    const register = () => {
      if (worker) {
        // updateViaCache "none": every update check asks the server (the script is
        // no-cache too), so a new asset version is seen on the next load.
        const uncontrolled = !navigator.serviceWorker.controller;
        navigator.serviceWorker.register(worker, { scope, updateViaCache: "none" }).catch(() => {});
        // This page came before the worker: ask it to keep the page for offline use too.
        if (uncontrolled) {
          navigator.serviceWorker.ready.then((registration) => {
            if (registration.active) registration.active.postMessage({ type: "keep", url: location.href });
          }).catch(() => {});
        }
      } else {
        // Turned off: no worker of this app stays, and nothing it kept.
        navigator.serviceWorker.getRegistrations().then(async (registrations) => {
          const ours = registrations.filter((registration) => new URL(registration.scope).pathname === scope);
          if (!ours.length) return;
          for (const registration of ours) await registration.unregister();
          if ("caches" in window) {
            for (const name of await caches.keys()) if (name.startsWith("tabserver-")) await caches.delete(name);
          }
        }).catch(() => {});
      }
    };
    // After the page has loaded: the worker's first downloads do not compete with it.
    if (document.readyState === "complete") register();
    else addEventListener("load", register, { once: true });
  }

  if ("setAppBadge" in navigator) {
    let shown = null;
    const update = () => {
      const bar = document.querySelector("nav.tab-bar");
      // A page without the bar (one that hides it) says nothing about the badges.
      if (!bar) return;
      let sum = 0;
      for (const badge of bar.querySelectorAll(".tab-badge[data-count]")) sum += Number(badge.dataset.count) || 0;
      if (sum === shown) return;
      shown = sum;
      const done = sum > 0 ? navigator.setAppBadge(sum)
        : navigator.clearAppBadge ? navigator.clearAppBadge() : navigator.setAppBadge(0);
      if (done && done.catch) done.catch(() => {});
    };
    update();
    // The bar is swapped by app.js and live.js: look again after each change of the page.
    let pending = false;
    new MutationObserver(() => {
      if (pending) return;
      pending = true;
      queueMicrotask(() => { pending = false; update(); });
    }).observe(document.body, { childList: true, subtree: true, characterData: true, attributes: true,
      attributeFilter: ["data-count"] });
  }
})();
