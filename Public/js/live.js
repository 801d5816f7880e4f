/* SPDX-License-Identifier: Apache-2.0 */
// Optional enhancement: live badges and bar updates from GET /events (Server-Sent
// Events). Without JavaScript the next page load shows the same state.
(() => {
  "use strict";
  if (!("EventSource" in window) || !("fetch" in window) || !("DOMParser" in window)) return;
  const form = document.querySelector("nav.tab-bar form:not(.sidebar-toggle)");
  // In development mode every page follows the saved files, with a bar or without one.
  const development = document.documentElement.hasAttribute("data-dev");
  if (!form && !development) return;
  const base = document.documentElement.dataset.base
    ?? (form ? (form.getAttribute("action") || "/select").replace(/\/select$/, "") : "");

  // Spoken summary of what changed, for screen readers (polite: never interrupts).
  const summary = document.createElement("div");
  summary.className = "visually-hidden";
  summary.setAttribute("aria-live", "polite");
  summary.id = "live-summary";
  document.body.append(summary);

  // This window's id, sent with the script's posts (app.js) so that the bar event a post
  // causes does not make this window fetch its page again.
  window.tabServerWindow = window.tabServerWindow || windowID();
  function windowID() {
    const bytes = new Uint8Array(12);
    crypto.getRandomValues(bytes);
    return Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join("");
  }

  let source = null;
  let retryTimer = 0;
  let delay = 1000;

  // The bar as the server renders it now (titles, badges, spoken labels, More).
  async function refreshBar() {
    try {
      // Marked as a prefetch: showing the bar again is not a visit, and must not select
      // this page's tab again (the visitor may have just tapped another one).
      const response = await fetch(window.location.href, {
        credentials: "same-origin", headers: { Purpose: "prefetch" },
      });
      if (!response.ok) return;
      const doc = new DOMParser().parseFromString(await response.text(), "text/html");
      const fresh = doc.querySelector("nav.tab-bar");
      const current = document.querySelector("nav.tab-bar");
      if (fresh && current) current.replaceWith(fresh);
    } catch (_) {
      // Offline or navigating away: the next page load shows the state.
    }
  }

  function applyBadge(change) {
    const button = Array.from(document.querySelectorAll('nav.tab-bar button[name="tab"]'))
      .find((candidate) => candidate.value === change.tab);
    if (button) {
      let badge = button.querySelector(".tab-badge");
      if (!change.text && !change.label) {
        if (badge) badge.remove();
      } else {
        if (!badge) {
          badge = document.createElement("span");
          badge.className = "tab-badge";
          badge.setAttribute("aria-hidden", "true");
          const title = button.querySelector(".tab-title");
          if (title) title.after(badge); else button.append(badge);
        }
        badge.textContent = change.text;
        badge.classList.toggle("is-dot", change.text === "");
      }
      const title = button.querySelector(".tab-title");
      summary.textContent = change.label ? `${title ? title.textContent : change.tab}: ${change.label}` : "";
    }
    refreshBar();
  }

  function connect() {
    if (source || document.visibilityState !== "visible") return;
    source = new EventSource(base + "/events");
    source.addEventListener("badge", (event) => {
      try { applyBadge(JSON.parse(event.data)); } catch (_) { refreshBar(); }
    });
    source.addEventListener("bar", (event) => {
      // This window's own tap or edit: its answer showed the bar as it is now.
      try { if (JSON.parse(event.data).from === window.tabServerWindow) return; } catch (_) { /* redraw */ }
      refreshBar();
    });
    // Development mode's events are dev.js's to act on.
    source.addEventListener("dev", (event) => {
      try {
        window.dispatchEvent(new CustomEvent("tabserver-dev", { detail: JSON.parse(event.data) }));
      } catch (_) { /* not one of ours */ }
    });
    source.addEventListener("open", () => {
      delay = 1000;
      // Lets styles and tests tell that live updates are on.
      document.documentElement.dataset.live = "open";
    });
    source.addEventListener("error", () => {
      // The browser retries a dropped stream itself; a refused one (503, 204) is
      // closed, and retried here with backoff.
      if (source && source.readyState === EventSource.CLOSED) {
        source = null;
        retryTimer = window.setTimeout(connect, delay);
        delay = Math.min(delay * 2, 30000);
      }
    });
  }

  function disconnect() {
    window.clearTimeout(retryTimer);
    delete document.documentElement.dataset.live;
    if (source) { source.close(); source = null; }
  }

  let missed = false;
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible") {
      connect();
      // Events sent while the page was hidden were not received: catch up once.
      if (missed) { missed = false; refreshBar(); }
    } else {
      disconnect();
      missed = true;
    }
  });
  window.addEventListener("pagehide", disconnect);
  connect();
})();
