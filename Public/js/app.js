/* SPDX-License-Identifier: Apache-2.0 */
// Optional enhancement: everything works without this file.
// Sends the app's forms (tab bar, More, the question, Edit tabs) without a full page
// load, swapping the header, <main> and the bar; keeps focus where the visitor was,
// announces the new page, adds no history entry when the address stays the same, and
// keeps each page's scroll position.
(() => {
  "use strict";
  if (!("fetch" in window) || !("DOMParser" in window)) return;
  // Marks pages where the enhancement runs (styles and the browser tests can tell).
  document.documentElement.classList.add("js");

  const withoutHash = (url) => String(url).split("#")[0];
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

  // Says something through the page's live region (it stays in the document, so screen
  // readers notice the change; a role="status" arriving with new content is not read).
  function announce(text) {
    const live = document.querySelector(".announcer");
    if (!live || !text) return;
    live.textContent = "";
    setTimeout(() => { live.textContent = text; }, 60);
  }

  // Where focus goes after the swap: the same control if it is still there and usable
  // (an Edit step), another control of its row, the tab chosen with the keyboard, or the
  // new page's heading.
  function focusAfterSwap(submitter, keyboard) {
    if (submitter && submitter.id) {
      const same = document.getElementById(submitter.id);
      if (same && !same.disabled) return same;
      const row = submitter.closest("li[id]") && document.getElementById(submitter.closest("li[id]").id);
      const other = row && [...row.querySelectorAll("button")].find((b) => !b.disabled);
      if (other) return other;
    }
    if (keyboard && submitter && submitter.closest("nav.tab-bar")) {
      const tab = submitter.name === "more"
        ? document.querySelector("nav.tab-bar .tab-more .tab")
        : document.querySelector(`nav.tab-bar button[name="tab"][value="${CSS.escape(submitter.value)}"]`);
      if (tab) return tab;
    }
    // A page that names its first field (the search tab's) starts there, as a load does.
    const field = document.querySelector("main [autofocus]");
    if (field && !field.disabled) return field;
    return document.querySelector(".app-title");
  }

  async function navigate(response, submitter, keyboard) {
    const text = await response.text();
    const doc = new DOMParser().parseFromString(text, "text/html");
    const main = doc.querySelector("main");
    const bar = doc.querySelector("nav.tab-bar");
    const header = doc.querySelector(".app-header");
    if (!main || !header) { window.location.href = response.url; return; }
    const samePage = withoutHash(response.url) === shown;
    const anchorTop = submitter && samePage ? submitter.getBoundingClientRect().top : null;
    if (!samePage) rememberScroll();
    const swap = () => {
      document.querySelector("main").replaceWith(main);
      // A page may come without the bar (one that hides it) or bring it back.
      const oldBar = document.querySelector("nav.tab-bar");
      if (oldBar && bar) oldBar.replaceWith(bar);
      else if (oldBar) oldBar.remove();
      else if (bar) document.body.append(bar);
      document.querySelector(".app-header").replaceWith(header);
      document.body.className = doc.body.className;
      document.title = doc.title;
      // The same address again (an Edit step, a refused tap): no new history entry.
      if (samePage) history.replaceState(null, "", response.url);
      else history.pushState(null, "", response.url);
      shown = withoutHash(location.href);
      const target = focusAfterSwap(submitter, keyboard);
      if (target) target.focus({ preventScroll: true });
      if (anchorTop !== null && target && target !== document.querySelector(".app-title")) {
        // Keep the control where it was on screen.
        window.scrollBy(0, target.getBoundingClientRect().top - anchorTop);
      } else if (!samePage) {
        window.scrollTo(0, rememberedScroll(response.url));
      }
      const notice = main.querySelector("[role=status], [role=alert]");
      announce(notice ? notice.textContent.trim().replace(/\s+/g, " ") : doc.title);
      updateScrollEdge();
      addDragHandles();
      updateShortcuts();
    };
    if (!samePage && document.startViewTransition && !matchMedia("(prefers-reduced-motion: reduce)").matches) {
      document.startViewTransition(swap);
    } else {
      swap();
    }
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
    try {
      const response = await fetch(action, {
        method: "POST", body, credentials: "same-origin", redirect: "follow",
        headers: { "Content-Type": "application/x-www-form-urlencoded" },
      });
      // Nothing new to show (a re-tap of the tab at its root): back to the top, as UIKit does.
      if (response.status === 204) { window.scrollTo({ top: 0, behavior: "smooth" }); return; }
      // A refusal (expired form 403, stale 409, bad request 400, 503...) is a page of its
      // own: let the browser post again and show it, as it would without this script.
      if (!response.ok || !response.redirected) { submitNatively(form, submitter); return; }
      await navigate(response, submitter, keyboard);
    } catch {
      submitNatively(form, submitter);
    }
  });

  // Back and Forward between pages this script showed: load them. A fragment change on
  // the same page (the skip link's #main) is not a new page.
  window.addEventListener("popstate", () => {
    if (withoutHash(location.href) === shown) return;
    window.location.reload();
  });

  // Drag-and-drop on the Edit page: a handle on every movable row; dropping a row on
  // another puts it in that row's place (among the movable tabs: fixed tabs keep their
  // places) and posts the whole order. The ↑/↓ buttons stay for keyboards and for
  // visitors without this script. Pointer events: mouse, pen and touch alike.
  function addDragHandles() {
    for (const row of document.querySelectorAll("li.customize-row")) {
      if (!row.querySelector("form") || row.querySelector(".drag-handle")) continue;
      const handle = document.createElement("span");
      handle.className = "drag-handle";
      handle.setAttribute("aria-hidden", "true");
      row.append(handle);
    }
  }

  function orderAfterDrop(section, moved, target) {
    const rows = [...section.querySelectorAll("li.customize-row")];
    const order = rows.map((row) => row.dataset.tab);
    const movable = rows.filter((row) => row.querySelector("form")).map((row) => row.dataset.tab);
    const from = movable.indexOf(moved), to = movable.indexOf(target);
    if (from < 0 || to < 0 || from === to) return null;
    movable.splice(to, 0, movable.splice(from, 1)[0]);
    // Movable tabs fill the movable places in their new order; fixed tabs stay.
    let next = 0;
    return rows.map((row, index) => (row.querySelector("form") ? movable[next++] : order[index]));
  }

  document.addEventListener("pointerdown", (event) => {
    const handle = event.target instanceof Element && event.target.closest(".drag-handle");
    if (!handle) return;
    const row = handle.closest("li.customize-row");
    const section = row.closest(".customize-compact, .customize-regular");
    const form = row.querySelector("form");
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
      target = under && under.querySelector("form") ? under : null;
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
          headers: { "Content-Type": "application/x-www-form-urlencoded" },
        });
        if (response.ok && response.redirected) await navigate(response, null, false);
        else window.location.reload();
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
  // iPad apps do with a keyboard; each item says so in aria-keyshortcuts. (A browser with
  // tabs may keep these keys for its own tabs; an installed app gets them.)
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
  // its scroll-edge look while the content's bottom edge is reached.
  const scrollDriven = CSS.supports("animation-timeline: scroll()");
  function updateScrollEdge() {
    if (scrollDriven) return;
    // The large title has scrolled under the header: the inline title shows (CSS does
    // this itself where scroll-driven animations exist).
    document.documentElement.classList.toggle("title-collapsed", scrollY > 40);
    const atEdge = Math.ceil(scrollY + innerHeight) >= document.documentElement.scrollHeight - 1;
    document.documentElement.classList.toggle("at-scroll-edge", atEdge);
  }
  addEventListener("scroll", updateScrollEdge, { passive: true });
  addEventListener("resize", updateScrollEdge, { passive: true });
  updateScrollEdge();
})();
