/* SPDX-License-Identifier: Apache-2.0 */
// Optional enhancement: everything works without this file. It sends the app's forms
// and follows its links without a full page load (one request a tap: the server answers
// a post with the page itself), keeps focus, scroll and a tab app's history.
// docs/offline.md and docs/tabs.md say what it does.
(() => {
  "use strict";
  if (!("fetch" in window) || !("DOMParser" in window)) return;
  // Marks pages where the enhancement runs (styles and the browser tests can tell).
  document.documentElement.classList.add("js");

  const withoutHash = (url) => String(url).split("#")[0];
  // The base path (a deployment below /shop): this file is served at <base>/js/app.js.
  const base = (() => {
    const src = document.currentScript && document.currentScript.src;
    const path = src ? new URL(src, location.href).pathname : "/js/app.js";
    return path.slice(0, Math.max(0, path.lastIndexOf("/js/")));
  })();
  // The tab a page belongs to: "/tabs/music/albums/1" → "music"; More and Edit → "more".
  function tabOf(url) {
    const path = new URL(url, location.href).pathname;
    if (!path.startsWith(base + "/")) return null;
    const rest = path.slice(base.length);
    if (rest === "/more" || rest.startsWith("/more/")) return "more";
    const match = /^\/tabs\/([a-z0-9-]+)(\/|$)/.exec(rest);
    return match ? match[1] : null;
  }
  // The document the page shows: a change of the fragment alone (the skip link) is not
  // a new page, and Back over it must not reload.
  let shown = withoutHash(location.href);

  // Scroll positions per page (so per tab: a tab comes back where it was left).
  const scrollKey = (url) => "tabserver:scroll:" + new URL(url, location.href).pathname;
  function rememberScroll() {
    try { sessionStorage.setItem(scrollKey(location.href), String(Math.round(scrollY))); } catch { /* private mode */ }
  }
  function rememberedScroll(url) {
    try { return Number(sessionStorage.getItem(scrollKey(url))) || 0; } catch { return 0; }
  }
  addEventListener("pagehide", rememberScroll);

  // Where each tab was last seen in this window (the server's answer has the last word).
  const placesKey = "tabserver:places";
  const places = (() => {
    try { return new Map(Object.entries(JSON.parse(sessionStorage.getItem(placesKey) || "{}"))); } catch { return new Map(); }
  })();
  // A page's address without its question (`?confirm=`) or fragment.
  function placeAddress(url) {
    const address = new URL(url, location.href);
    address.hash = "";
    address.searchParams.delete("confirm");
    return address;
  }
  function rememberPlace(url) {
    const tab = tabOf(url);
    if (!tab || tab === "more") return;
    const address = placeAddress(url);
    places.set(tab, address.pathname + address.search);
    try { sessionStorage.setItem(placesKey, JSON.stringify(Object.fromEntries(places))); } catch { /* private mode */ }
  }
  const placeOf = (tab) => new URL(places.get(tab) || `${base}/tabs/${tab}`, location.href).href;

  // Each tab's stack in this window (its root to where it is), for rebuildHistory.
  const stacksKey = "tabserver:stacks";
  const stacks = (() => {
    try { return JSON.parse(sessionStorage.getItem(stacksKey) || "{}"); } catch { return {}; }
  })();
  function recordStack(page, how) {
    const tab = tabOf(page);
    if (!tab) return;
    const url = placeAddress(page).href;
    const stack = stacks[tab] || [];
    const at = stack.indexOf(url);
    const top = stack[stack.length - 1];
    if (at >= 0) stack.length = at + 1; // Back, the back item or the root again: popped to it
    else if (top && (how === "push" || new URL(url).pathname.startsWith(new URL(top).pathname + "/"))) stack.push(url);
    else if (how === "replace" && top && new URL(top).pathname === new URL(url).pathname) stack[stack.length - 1] = url;
    else stack.splice(0, stack.length, url);
    stacks[tab] = stack;
    try { sessionStorage.setItem(stacksKey, JSON.stringify(stacks)); } catch { /* private mode */ }
  }

  // Pages this window has left, by history entry, kept as they were (what was typed
  // too): Back and Forward show them again without a request.
  const left = new Map();
  const keepAtMost = 24;
  let entryKey = (history.state && history.state.tabserver) || newKey();
  // The entry's place in this window's history, so Back (lower) is told from Forward.
  let entryIndex = (history.state && history.state.tabserverIndex) || 0;
  function newKey() { return Math.random().toString(36).slice(2) + Date.now().toString(36); }
  history.replaceState({ ...(history.state || {}), tabserver: entryKey, tabserverIndex: entryIndex }, "");

  // A move as UIKit animates it: "push" (deeper, or a row of More), "pop" (up, or Back),
  // "switch" (another tab), or null (the same page). `back` tells Back from Forward.
  const depthOf = (url) => new URL(url, location.href).pathname.slice(base.length).split("/").filter(Boolean).length;
  function transitionType(from, to, how, back, fromBar = false) {
    if (withoutHash(from) === withoutHash(to)) return null;
    if (how === "none") return back ? "pop" : "push";
    const fromTab = tabOf(from);
    const toTab = tabOf(to);
    if (fromBar && fromTab !== toTab) return "switch";
    if (fromTab === "more" && toTab !== "more" && withoutHash(from).endsWith("/more")) return "push";
    if (fromTab !== toTab) return toTab === "more" && how === "push" ? "pop" : "switch";
    return depthOf(to) < depthOf(from) ? "pop" : "push";
  }
  const reducedMotion = () => matchMedia("(prefers-reduced-motion: reduce)").matches;
  // Between documents (a post the browser sends itself, a page this script did not
  // show): the old page names the type, the new one takes it up.
  const transitionKey = "tabserver:transition";
  addEventListener("pageswap", (event) => {
    const activation = event.activation;
    if (!event.viewTransition || !activation || !activation.entry) return;
    const traverse = activation.navigationType === "traverse";
    const back = traverse && window.navigation && navigation.currentEntry
      && activation.entry.index < navigation.currentEntry.index;
    const type = transitionType(location.href, activation.entry.url, traverse ? "none" : "push", back);
    try { sessionStorage.setItem(transitionKey, type || ""); } catch { /* private mode */ }
    if (type === "push" || type === "pop") event.viewTransition.types.add(type);
    else event.viewTransition.skipTransition();
  });
  addEventListener("pagereveal", (event) => {
    let type = "";
    try { type = sessionStorage.getItem(transitionKey) || ""; sessionStorage.removeItem(transitionKey); } catch { /* private mode */ }
    if (!event.viewTransition) return;
    if (type === "push" || type === "pop") event.viewTransition.types.add(type);
    else if (type) event.viewTransition.skipTransition();
  });

  function currentParts() {
    return {
      // The bar as the server drew it: a tap marks its item selected before the answer comes.
      url: shown, main: document.querySelector("main"), bar: barBeforeTap || document.querySelector("nav.tab-bar"),
      accessory: document.querySelector("aside.tab-accessory"),
      header: document.querySelector(".app-header"), bodyClass: document.body.className, title: document.title,
      scroll: scrollY,
    };
  }
  function keepLeftPage() {
    left.delete(entryKey);
    left.set(entryKey, currentParts());
    while (left.size > keepAtMost) left.delete(left.keys().next().value);
  }

  // Pages of the bar's other tabs, fetched ahead of a tap (marked as prefetches: the
  // server renders them and changes nothing), each with what a tap would do now.
  const prepared = new Map();
  const preparedFor = 60_000;
  function preparedPage(url) {
    const page = prepared.get(withoutHash(url));
    return page && page.text && Date.now() - page.at < preparedFor ? page : null;
  }
  function saveData() { return !!(navigator.connection && navigator.connection.saveData); }
  let prefetchTimer = 0;
  function schedulePrefetch() {
    clearTimeout(prefetchTimer);
    if (saveData()) return;
    prefetchTimer = setTimeout(() => {
      const idle = window.requestIdleCallback || ((run) => run());
      idle(prefetchBar, { timeout: 1000 });
    }, 300);
  }
  async function prefetchBar() {
    for (const [url, page] of prepared) if (Date.now() - page.at >= preparedFor) prepared.delete(url);
    const items = [...document.querySelectorAll('nav.tab-bar button[name="tab"]')]
      .filter((b) => !b.disabled && b.getAttribute("aria-current") !== "page" && b.getBoundingClientRect().width > 0);
    for (const item of items) {
      const url = placeOf(item.value);
      if (preparedPage(url) || (prepared.get(url) && prepared.get(url).pending)) continue;
      prepared.set(url, { pending: true, at: Date.now() });
      try {
        const response = await fetch(url, { credentials: "same-origin", headers: { Purpose: "prefetch" } });
        if (!response.ok) { prepared.delete(url); continue; }
        const page = { text: await response.text(), doc: null, at: Date.now(), allowed: response.headers.get("TabServer-Select") === "allow" };
        prepared.set(url, page);
        (window.requestIdleCallback || setTimeout)(() => { page.doc = new DOMParser().parseFromString(page.text, "text/html"); });
      } catch {
        prepared.delete(url);
        return; // Offline: try again on the next page.
      }
    }
  }

  // The browser's own form submission, with the pressed button's name and value (which
  // form.submit() alone leaves out): for anything the fetch path cannot show itself.
  function submitNatively(form, submitter) {
    if (submitter && submitter.name) {
      const field = document.createElement("input");
      field.type = "hidden";
      field.name = submitter.name;
      field.value = submitter.value;
      form.append(field);
    }
    // submit() ignores the button's formaction: give it to the form.
    const formAction = submitter && submitter.getAttribute("formaction");
    if (formAction) form.setAttribute("action", formAction);
    HTMLFormElement.prototype.submit.call(form);
  }

  // Says something through the page's live region (a new role="status" is not read).
  function announce(text) {
    const live = document.querySelector(".announcer");
    if (!live || !text) return;
    live.textContent = "";
    setTimeout(() => { live.textContent = text; }, 60);
  }

  // Focus after the swap: the same control if still usable (an Edit step), another of
  // its row, the tab chosen with the keyboard, or the new page's heading.
  function focusAfterSwap(submitter, keyboard) {
    if (submitter && submitter.id) {
      const same = document.getElementById(submitter.id);
      if (same && !same.disabled) return same;
      const row = submitter.closest("li[id]") && document.getElementById(submitter.closest("li[id]").id);
      const other = row && [...row.querySelectorAll("button")].find((b) => !b.disabled);
      if (other) return other;
      // A tab hidden or shown in Edit: its control in the list it went to.
      const tab = submitter.form && submitter.form.elements.tab && submitter.form.elements.tab.value;
      if (tab) {
        const moved = document.getElementById(`show-${tab}`)
          || [...document.querySelectorAll(`li[id$="-row-${CSS.escape(tab)}"] button`)]
            .find((b) => !b.disabled && b.offsetParent);
        if (moved) return moved;
      }
    }
    if (keyboard && submitter && submitter.closest("nav.tab-bar")) {
      const tab = barItemLike(submitter);
      if (tab) return tab;
    }
    // A page that names its first field (the search tab's) starts there, as a load does.
    const field = document.querySelector("main [autofocus]");
    if (field && !field.disabled) return field;
    return document.querySelector(".app-title");
  }
  // The bar item of the page on screen that stands for `item` (one of an older bar).
  function barItemLike(item) {
    return item.name === "more"
      ? document.querySelector("nav.tab-bar .tab-more .tab")
      : document.querySelector(`nav.tab-bar button[name="tab"][value="${CSS.escape(item.value)}"]`);
  }

  // Feedback in the same frame: the tapped item shows pressed at once, and selected as
  // soon as the tap is sent; the page that answers brings the bar as it really is (a
  // refusal or a question keeps the old selection), and a failure puts the old one back.
  const selectedClasses = ["is-selected", "is-selected-compact", "is-selected-regular"];
  let barBeforeTap = null;
  function showSelected(item) {
    const nav = item.closest("nav.tab-bar");
    barBeforeTap = nav.cloneNode(true);
    const before = [...nav.querySelectorAll(".tab")].map((el) => [el, el.className, el.getAttribute("aria-current")]);
    for (const [el] of before) {
      el.classList.remove(...selectedClasses, "is-pressed");
      el.removeAttribute("aria-current");
    }
    item.classList.add(...(item.name === "more" ? ["is-selected-compact", "is-selected-regular"] : ["is-selected"]));
    item.setAttribute("aria-current", "page");
    return () => {
      barBeforeTap = null;
      for (const [el, className, current] of before) {
        el.className = className;
        el.classList.remove("is-pressed");
        if (current) el.setAttribute("aria-current", current); else el.removeAttribute("aria-current");
      }
    };
  }
  const pressable = (target) => target instanceof Element && target.closest("nav.tab-bar .tab:not([disabled])");
  // Touch up inside an item (within 8 px of where it went down) selects it at once; the
  // submission, tens of milliseconds later on a slow phone, takes this selection up.
  let press = null;
  let early = null;
  let swallowUntil = 0;
  document.addEventListener("pointerdown", (event) => {
    const item = pressable(event.target);
    if (item) item.classList.add("is-pressed");
    press = item && event.isPrimary && event.button === 0 ? { item, x: event.clientX, y: event.clientY } : null;
    swallowUntil = 0; // a new gesture: the last one's mouse events have come
  }, { passive: true });
  document.addEventListener("pointerup", (event) => {
    const item = press && press.item;
    const moved = press && Math.hypot(event.clientX - press.x, event.clientY - press.y) >= 8;
    press = null;
    if (!item || moved || !event.isPrimary || !item.isConnected || item.getAttribute("aria-current") === "page") return;
    if (!(item.name === "tab" || item.name === "more") || !item.form) return;
    if (early) early.putBack();
    const chosen = { item, putBack: showSelected(item) };
    early = chosen;
    if (event.pointerType === "touch" && item.name === "tab" && preparedPage(placeOf(item.value))) {
      // Its page is here: sent once the selection is painted. The mouse events a touch
      // makes after it (mousedown, click) are not a tap, and take no focus.
      swallowUntil = performance.now() + 800;
      requestAnimationFrame(() => setTimeout(() => {
        if (early !== chosen) return;
        if (item.isConnected) item.form.requestSubmit(item); else { early = null; chosen.putBack(); }
      }));
      return;
    }
    // No submission came: as it was.
    setTimeout(() => { if (early === chosen) { early = null; chosen.putBack(); } }, 1000);
  }, { passive: true, capture: true });
  for (const type of ["mousedown", "mouseup", "click"]) {
    document.addEventListener(type, (event) => {
      if (performance.now() >= swallowUntil) return;
      if (type === "click") swallowUntil = 0;
      event.preventDefault();
      event.stopImmediatePropagation();
    }, true);
  }
  for (const type of ["pointerup", "pointercancel", "pointerleave"]) {
    document.addEventListener(type, () => {
      for (const el of document.querySelectorAll("nav.tab-bar .is-pressed")) el.classList.remove("is-pressed");
    }, { passive: true, capture: true });
  }

  // Shows a page from the server's HTML (or that HTML parsed). `how`: "push" (a page
  // inside the tab), "replace" (another tab, or the same address: no new entry).
  function show(text, url, how, { submitter = null, keyboard = false, quiet = false, fromMemory = false } = {}) {
    const doc = typeof text === "string" ? new DOMParser().parseFromString(text, "text/html") : text;
    const main = doc.querySelector("main");
    const header = doc.querySelector(".app-header");
    if (!main || !header) return false;
    swapIn({
      url: withoutHash(url), main, bar: doc.querySelector("nav.tab-bar"), accessory: doc.querySelector("aside.tab-accessory"),
      header, bodyClass: doc.body.className,
      title: doc.title, scroll: null,
    }, how, { submitter, keyboard, quiet, fromMemory, fullUrl: url });
    return true;
  }

  // Puts a page's parts on screen and records it in history (`how`: "push", "replace",
  // or "none" for Back and Forward, whose entry is already there).
  function swapIn(parts, how, { submitter = null, keyboard = false, quiet = false, fullUrl = parts.url, key = null, back = false, fromMemory = false } = {}) {
    const samePage = parts.url === shown;
    const type = transitionType(shown, parts.url, how, back, !!submitter && !!submitter.closest("nav.tab-bar"));
    // A page from memory was rendered before the page on screen: its forms take the
    // newest token (the session may have been made since).
    const token = fromMemory && document.querySelector('input[name="csrf"]');
    const freshToken = token && token.value;
    const anchorTop = submitter && samePage && submitter.isConnected ? submitter.getBoundingClientRect().top : null;
    if (!samePage) rememberScroll();
    // Android's Back comes back to the first tab: a switch away keeps its page too.
    if (how === "push" || how === "none" || (type === "switch" && firstTab())) keepLeftPage();
    const swap = () => {
      document.querySelector("main").replaceWith(parts.main);
      // A page may come without the bar (one that hides it) or bring it back.
      const oldBar = document.querySelector("nav.tab-bar");
      if (oldBar && parts.bar) oldBar.replaceWith(parts.bar);
      else if (oldBar) oldBar.remove();
      else if (parts.bar) document.body.append(parts.bar);
      // So does the strip above the bar (the accessory), just before it.
      const oldAccessory = document.querySelector("aside.tab-accessory");
      if (oldAccessory) oldAccessory.remove();
      if (parts.accessory) document.body.insertBefore(parts.accessory, document.querySelector("nav.tab-bar"));
      document.querySelector(".app-header").replaceWith(parts.header);
      document.body.className = parts.bodyClass;
      document.title = parts.title;
      if (freshToken) setTokens(freshToken);
      if (how === "push") {
        entryKey = newKey();
        entryIndex += 1;
        history.pushState({ tabserver: entryKey, tabserverIndex: entryIndex }, "", fullUrl);
      } else if (how === "replace") {
        history.replaceState({ ...(history.state || {}), tabserver: entryKey, tabserverIndex: entryIndex }, "", fullUrl);
      } else if (key) {
        entryKey = key;
      }
      shown = withoutHash(location.href);
      barBeforeTap = null;
      rememberPlace(shown);
      recordStack(shown, how === "none" && !back ? "push" : how);
      if (type === "switch") rebuildHistory();
      if (!quiet) {
        const target = focusAfterSwap(submitter, keyboard);
        if (target) target.focus({ preventScroll: true });
        if (anchorTop !== null && target && target !== document.querySelector(".app-title")) {
          // Keep the control where it was on screen.
          window.scrollBy(0, target.getBoundingClientRect().top - anchorTop);
        } else if (parts.scroll !== null) {
          window.scrollTo(0, parts.scroll);
        } else if (!samePage) {
          window.scrollTo(0, rememberedScroll(parts.url));
        }
        const notice = parts.main.querySelector("[role=status], [role=alert]");
        announce(notice ? notice.textContent.trim().replace(/\s+/g, " ") : document.title);
      }
      updateScrollEdge();
      // A new page starts with the whole bar.
      updateMinimized(true);
      addDragHandles();
      updateShortcuts();
      schedulePrefetch();
    };
    // A push or a pop slides (the chrome stays); a tab switch swaps in this frame, as UIKit.
    if (type) document.documentElement.dataset.lastTransition = type;
    if ((type === "push" || type === "pop") && document.startViewTransition && !reducedMotion()) {
      try {
        document.startViewTransition({ update: swap, types: [type] });
      } catch {
        // A browser without transition types: the plain cross-fade.
        document.startViewTransition(swap);
      }
    } else {
      swap();
    }
  }

  // The bar on screen brought up to the server's answer (the selection, badges); only
  // what differs is touched, so the item under the finger or with focus stays.
  function takeBar(text) {
    const fresh = new DOMParser().parseFromString(text, "text/html").querySelector("nav.tab-bar");
    const current = document.querySelector("nav.tab-bar");
    if (!fresh || !current || fresh.outerHTML === current.outerHTML) return;
    const focused = current.contains(document.activeElement) ? document.activeElement : null;
    patch(current, document.importNode(fresh, true));
    if (focused && !focused.isConnected && focused.matches(".tab")) {
      const again = barItemLike(focused);
      if (again) again.focus({ preventScroll: true });
    }
    updateShortcuts();
  }
  function patch(old, fresh) {
    if (old.isEqualNode(fresh)) return;
    if (old.tagName !== fresh.tagName || old.childNodes.length !== fresh.childNodes.length) {
      old.replaceWith(fresh);
      return;
    }
    for (const { name } of [...old.attributes]) if (!fresh.hasAttribute(name)) old.removeAttribute(name);
    for (const { name, value } of [...fresh.attributes]) if (old.getAttribute(name) !== value) old.setAttribute(name, value);
    // Both lists taken first: a patched child may move a node out of `fresh`.
    const others = [...fresh.childNodes];
    [...old.childNodes].forEach((child, index) => {
      const other = others[index];
      if (child.nodeType === Node.ELEMENT_NODE && other.nodeType === Node.ELEMENT_NODE) patch(child, other);
      else if (child.nodeType !== other.nodeType || child.nodeValue !== other.nodeValue) child.replaceWith(other.cloneNode(true));
    });
  }
  const mainOf = (text) => {
    const start = text.indexOf("<main"), end = text.lastIndexOf("</main>");
    return start >= 0 && end > start ? text.slice(start, end) : null;
  };

  // A post that selects a tab (the bar, More's rows, the question's button) switches
  // tabs: its page replaces the history entry.
  function selectsTab(action) {
    return action.pathname === base + "/select" || action.pathname === base + "/more/open";
  }
  function historyFor(url, switchesTab) {
    const next = new URL(url, location.href);
    // The same page again, or with its question (?confirm=) or without it: no new entry,
    // so Back never asks the question again.
    if (withoutHash(next.href) === shown || next.pathname === new URL(shown).pathname) return "replace";
    return switchesTab ? "replace" : "push";
  }

  document.addEventListener("submit", async (event) => {
    const form = event.target;
    if (!(form instanceof HTMLFormElement) || form.classList.contains("language-form")) return;
    if ((form.getAttribute("method") || "").toLowerCase() !== "post") return;
    // A form with files goes as the browser sends it: URLSearchParams would drop them.
    if ((form.getAttribute("enctype") || "").toLowerCase() === "multipart/form-data") return;
    // Not form.action: the Edit page's buttons are named "action", which shadows it. The
    // pressed button's own formaction (the bar's More) wins, as in a native submission.
    const submitter = event.submitter;
    const target = (submitter && submitter.getAttribute("formaction")) || form.getAttribute("action") || "";
    const action = new URL(target, location.href);
    if (action.origin !== location.origin) return;
    event.preventDefault();
    const body = new URLSearchParams(new FormData(form, submitter));
    const keyboard = !!submitter && document.activeElement === submitter && submitter.matches(":focus-visible");
    const switchesTab = selectsTab(action);
    // (A sidebar group's heading is a button of the bar's form, not an item.)
    const inBar = !!submitter && !!submitter.closest("nav.tab-bar") && !submitter.matches(".tab-group-toggle");
    const selectedEarly = inBar && early && early.item === submitter ? early : null;
    early = null;
    const wasCurrent = inBar && !selectedEarly && submitter.getAttribute("aria-current") === "page";
    const putBack = selectedEarly ? selectedEarly.putBack : inBar ? showSelected(submitter) : () => {};
    // A prepared tab: its page at once, while the tap goes to the server.
    let painted = null;
    if (inBar && !wasCurrent && submitter.name === "tab") {
      const url = placeOf(submitter.value);
      const page = preparedPage(url);
      const main = page && page.allowed && mainOf(page.text);
      if (main && show(page.doc || page.text, url, "replace", { submitter, keyboard, fromMemory: true })) {
        painted = { url: withoutHash(url), main };
        prepared.delete(withoutHash(url));
      }
    }
    // Anything but a tab switch may change what other tabs' pages show.
    if (!switchesTab) prepared.clear();
    try {
      const response = await fetch(action, {
        method: "POST", body, credentials: "same-origin", redirect: "follow",
        headers: {
          "Content-Type": "application/x-www-form-urlencoded", "TabServer-Answer": "page",
          ...(window.tabServerWindow ? { "TabServer-Window": window.tabServerWindow } : {}),
        },
      });
      // Nothing new to show (a re-tap of the tab at its root): back to the top, as UIKit does.
      if (response.status === 204) { putBack(); window.scrollTo({ top: 0, behavior: "smooth" }); return; }
      const answered = response.headers.get("TabServer-Location");
      const url = answered ? new URL(answered, location.href).href : response.redirected ? response.url : null;
      // A refusal (expired form 403, stale 409, bad request 400, 503...) is a page of its
      // own: let the browser post again and show it, as it would without this script.
      if (!response.ok || !url) { fallBack(); return; }
      const text = await response.text();
      if (painted && withoutHash(url) === painted.url && mainOf(text) === painted.main) {
        // The prepared page was the right one: only the bar may have changed.
        takeBar(text);
        return;
      }
      if (!show(text, url, historyFor(url, switchesTab), { submitter, keyboard })) window.location.href = url;
    } catch {
      fallBack();
    }

    function fallBack() {
      putBack();
      // A prepared page took the form off the page: the browser posts only a form in it.
      if (!form.isConnected) {
        form.hidden = true;
        document.body.append(form);
      }
      submitNatively(form, submitter);
    }
  });

  // Links to the app's own pages: fetched and swapped in, a history entry each (a page
  // pushed inside the tab); the back item goes back when it names the entry before.
  document.addEventListener("click", async (event) => {
    if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    const link = event.target instanceof Element && event.target.closest("a[href]");
    if (!link || link.target || link.hasAttribute("download") || link.classList.contains("skip-link")) return;
    const url = new URL(link.href, location.href);
    if (url.origin !== location.origin || !tabOf(url) || url.pathname.endsWith("/events")) return;
    if (withoutHash(url.href) === shown && url.hash) return; // a fragment of this page
    event.preventDefault();
    const previous = history.state && history.state.tabserverPrevious;
    if (link.rel === "up" && previous === withoutHash(url.href) && left.size) { history.back(); return; }
    try {
      const response = await fetch(url, { credentials: "same-origin" });
      if (!response.ok) { window.location.href = url.href; return; }
      const final = response.url || url.href;
      const how = historyFor(final, false);
      const from = shown;
      if (!show(await response.text(), final + url.hash, how)) { window.location.href = url.href; return; }
      if (how === "push") history.replaceState({ ...history.state, tabserverPrevious: from }, "");
    } catch {
      window.location.href = url.href;
    }
  });

  // After a tab switch history holds that tab's stack alone (with the Navigation API):
  // Back pops it, never shows another tab's pages, and leaves the app at its root. On
  // Android (Material's bar) the first tab's stack comes before another tab's, as
  // Android's Back goes: from that tab's root to the first tab, then out of the app.
  let rebuilding = null;
  function firstTab() {
    if (!document.body.classList.contains("platform-material")) return null;
    const button = document.querySelector(
      "nav.tab-bar li.tab-item:not(.is-sidebar-only):not(.in-more-compact) > button[name=tab]");
    return button && button.value;
  }
  async function rebuildHistory() {
    if (!window.navigation || !navigation.entries || rebuilding) return;
    const url = placeAddress(shown).href;
    const stack = stacks[tabOf(url)] || [url];
    const own = stack[stack.length - 1] === url ? stack : [url];
    const first = firstTab();
    const pages = first && first !== tabOf(url) ? [...(stacks[first] || [placeOf(first)]), ...own] : own;
    const entries = navigation.entries();
    const current = navigation.currentEntry;
    if (!current || current.index < 0) return;
    let start = current.index;
    // This document's own entries only (traversing to another would leave it).
    while (start > 0 && entries[start - 1].sameDocument && tabOf(entries[start - 1].url)) start -= 1;
    if (start === current.index && pages.length === 1) return;
    const kept = new Map([...left.values()].map((page) => [page.url, page]));
    rebuilding = (async () => {
      if (start !== current.index) await navigation.traverseTo(entries[start].key).finished;
      left.delete(entryKey);
      pages.forEach((page, index) => {
        const key = index === pages.length - 1 ? entryKey : newKey();
        const state = { tabserver: key, tabserverIndex: index, tabserverPrevious: pages[index - 1] };
        if (index === 0) history.replaceState(state, "", page);
        else history.pushState(state, "", page);
        if (index < pages.length - 1 && kept.has(page)) left.set(key, kept.get(page));
      });
      entryIndex = pages.length - 1;
    })();
    try { await rebuilding; } catch { /* history stays as the switch left it */ } finally { rebuilding = null; }
  }

  // Back and Forward between pages this script showed: from memory when kept (the
  // server is then told of the visit), else loaded. A fragment change is not a new page.
  window.addEventListener("popstate", (event) => {
    if (rebuilding || withoutHash(location.href) === shown) return;
    const key = event.state && event.state.tabserver;
    const kept = key && left.get(key);
    if (!kept || kept.url !== withoutHash(location.href)) { window.location.reload(); return; }
    left.delete(key);
    const index = (event.state && event.state.tabserverIndex) || 0;
    const back = index < entryIndex;
    entryIndex = index;
    swapIn(kept, "none", { key, back, fromMemory: true });
    revisit(location.href);
  });
  async function revisit(url) {
    try {
      const response = await fetch(url, { credentials: "same-origin" });
      // The page at this address still (the swap that shows it may not have run yet).
      if (!response.ok || withoutHash(url) !== withoutHash(location.href)) return;
      const text = await response.text();
      takeBar(text);
      takeTokens(text);
    } catch { /* offline: the page stays as it was */ }
  }
  // The forms' token of a fresh copy of the page (the session may have been made or
  // changed since this copy was rendered).
  function takeTokens(text) {
    const fresh = new DOMParser().parseFromString(text, "text/html").querySelector('input[name="csrf"]');
    if (fresh) setTokens(fresh.value);
  }
  function setTokens(value) {
    for (const field of document.querySelectorAll('input[name="csrf"]')) field.value = value;
    for (const holder of document.querySelectorAll("[data-csrf]")) holder.dataset.csrf = value;
  }

  // A prerendered page was fetched as a prefetch (not a visit): shown, it is visited
  // now, and takes the bar and tokens of that answer.
  if (document.prerendering) {
    document.addEventListener("prerenderingchange", () => revisit(location.href), { once: true });
  }

  rememberPlace(shown);
  recordStack(shown, "replace");
  schedulePrefetch();

  // Edit's drag-and-drop: a movable row dropped on another takes its place (fixed tabs
  // keep theirs) and the whole order is posted. ↑/↓ stay for keyboards.
  function addDragHandles() {
    for (const row of document.querySelectorAll("li.customize-row")) {
      if (!row.querySelector("form.row-actions") || row.querySelector(".drag-handle")) continue;
      const handle = document.createElement("span");
      handle.className = "drag-handle";
      handle.setAttribute("aria-hidden", "true");
      row.append(handle);
    }
  }

  function orderAfterDrop(section, moved, target) {
    const rows = [...section.querySelectorAll("li.customize-row")];
    const order = rows.map((row) => row.dataset.tab);
    const movable = rows.filter((row) => row.querySelector("form.row-actions")).map((row) => row.dataset.tab);
    const from = movable.indexOf(moved), to = movable.indexOf(target);
    if (from < 0 || to < 0 || from === to) return null;
    movable.splice(to, 0, movable.splice(from, 1)[0]);
    // Movable tabs fill the movable places in their new order; fixed tabs stay.
    let next = 0;
    return rows.map((row, index) => (row.querySelector("form.row-actions") ? movable[next++] : order[index]));
  }

  document.addEventListener("pointerdown", (event) => {
    const handle = event.target instanceof Element && event.target.closest(".drag-handle");
    if (!handle) return;
    const row = handle.closest("li.customize-row");
    const section = row.closest(".customize-compact, .customize-regular");
    const form = row.querySelector("form.row-actions");
    if (!section || !form) return;
    event.preventDefault();
    handle.setPointerCapture(event.pointerId);
    const startY = event.clientY;
    let target = null;
    row.classList.add("is-dragging");
    const onMove = (move) => {
      row.style.transform = `translateY(${move.clientY - startY}px)`;
      const under = document.elementsFromPoint(move.clientX, move.clientY)
        .map((el) => el.closest("li.customize-row")).find((li) => li && li !== row && section.contains(li));
      for (const li of section.querySelectorAll(".is-drop-target")) li.classList.remove("is-drop-target");
      target = under && under.querySelector("form.row-actions") ? under : null;
      if (target) target.classList.add("is-drop-target");
    };
    const onUp = async () => {
      handle.removeEventListener("pointermove", onMove);
      handle.removeEventListener("pointerup", onUp);
      handle.removeEventListener("pointercancel", onUp);
      row.classList.remove("is-dragging");
      row.style.transform = "";
      if (target) target.classList.remove("is-drop-target");
      const order = target && orderAfterDrop(section, row.dataset.tab, target.dataset.tab);
      if (!order) return;
      const body = new URLSearchParams();
      body.append("csrf", form.elements.csrf.value);
      body.append("version", form.elements.version.value);
      body.append("action", "order");
      for (const id of order) body.append("order", id);
      try {
        const response = await fetch(new URL(form.getAttribute("action"), location.href), {
          method: "POST", body, credentials: "same-origin", redirect: "follow",
          headers: {
          "Content-Type": "application/x-www-form-urlencoded", "TabServer-Answer": "page",
          ...(window.tabServerWindow ? { "TabServer-Window": window.tabServerWindow } : {}),
        },
        });
        const answered = response.headers.get("TabServer-Location");
        const url = answered ? new URL(answered, location.href).href : response.redirected ? response.url : null;
        if (!response.ok || !url || !show(await response.text(), url, historyFor(url, false))) window.location.reload();
      } catch {
        window.location.reload();
      }
    };
    handle.addEventListener("pointermove", onMove);
    handle.addEventListener("pointerup", onUp);
    handle.addEventListener("pointercancel", onUp);
  });
  addDragHandles();

  // Keyboard: Ctrl+1…9 (⌘ on Apple systems) select the nth item of the bar on screen, as
  // iPad apps do; each item says so in aria-keyshortcuts.
  const modifier = /Mac|iPhone|iPad/.test(navigator.platform || navigator.userAgent) ? "Meta" : "Control";
  const barItems = () => [...document.querySelectorAll("nav.tab-bar .tab-item .tab")]
    .filter((el) => el.getBoundingClientRect().width > 0);
  function updateShortcuts() {
    for (const el of document.querySelectorAll("nav.tab-bar .tab[aria-keyshortcuts]")) el.removeAttribute("aria-keyshortcuts");
    barItems().slice(0, 9).forEach((el, index) => el.setAttribute("aria-keyshortcuts", `${modifier}+${index + 1}`));
  }
  document.addEventListener("keydown", (event) => {
    const pressed = modifier === "Meta" ? event.metaKey && !event.ctrlKey : event.ctrlKey && !event.metaKey;
    if (!pressed || event.altKey || event.shiftKey || !/^[1-9]$/.test(event.key)) return;
    const item = barItems()[Number(event.key) - 1];
    if (!item || item.disabled) return;
    event.preventDefault();
    item.click();
  });
  addEventListener("resize", updateShortcuts, { passive: true });

  // Escape cancels the search (iOS 26: back to the tab selected before it); in a field
  // with text the browser clears the text first.
  document.addEventListener("keydown", (event) => {
    if (event.key !== "Escape" || event.defaultPrevented) return;
    const cancel = document.getElementById("search-cancel");
    const field = document.getElementById("search-query");
    if (!cancel || (field && document.activeElement === field && field.value)) return;
    event.preventDefault();
    cancel.click();
  });
  updateShortcuts();

  // scrollEdgeAppearance where CSS scroll-driven animations are missing: the bar takes
  // its scroll-edge look while the content's bottom edge is reached, and the header's
  // hairline shows only with content under it.
  const scrollDriven = CSS.supports("animation-timeline: scroll()");
  function updateScrollEdge() {
    if (scrollDriven) return;
    // The large title scrolled under the header: the inline title shows.
    document.documentElement.classList.toggle("title-collapsed", scrollY > 40);
    // Content under the header: its hairline shows.
    document.documentElement.classList.toggle("content-under-header", scrollY > 0);
    const atEdge = Math.ceil(scrollY + innerHeight) >= document.documentElement.scrollHeight - 1;
    document.documentElement.classList.toggle("at-scroll-edge", atEdge);
  }
  addEventListener("scroll", updateScrollEdge, { passive: true });
  addEventListener("resize", updateScrollEdge, { passive: true });
  updateScrollEdge();

  // minimizeBehavior (iOS 26): the bar is compact while the page scrolls one way (down,
  // or up for "onScrollUp"), whole when it scrolls back, near the top and at the end.
  // CSS follows the position; this adds the direction (html.js-minimize).
  // Only classes change: focus and the page's padding stay as they are.
  const minimizeAfter = 48; // px from the top before the bar may minimize
  const endRoom = 24; // px from the end where it is whole again
  const minimizeTravel = 12; // px scrolled one way before the bar changes
  let lastScroll = scrollY;
  let travel = 0;
  function minimizeBehavior() {
    const body = document.body.classList;
    if (body.contains("minimize-on-scroll-down")) return "down";
    return body.contains("minimize-on-scroll-up") ? "up" : null;
  }
  function updateMinimized(fresh = false) {
    const root = document.documentElement;
    const behavior = minimizeBehavior();
    root.classList.toggle("js-minimize", !!behavior);
    const y = scrollY;
    const delta = y - lastScroll;
    lastScroll = y;
    const atEnd = Math.ceil(y + innerHeight) >= root.scrollHeight - endRoom;
    if (!behavior || fresh || y < minimizeAfter || atEnd) {
      root.classList.remove("bar-minimized");
      travel = 0;
      return;
    }
    if (delta === 0) return;
    travel = Math.sign(delta) === Math.sign(travel) ? travel + delta : delta;
    if (Math.abs(travel) < minimizeTravel) return;
    root.classList.toggle("bar-minimized", (travel > 0) === (behavior === "down"));
  }
  addEventListener("scroll", () => updateMinimized(), { passive: true });
  addEventListener("resize", () => updateMinimized(), { passive: true });
  updateMinimized(true);
})();
