/* SPDX-License-Identifier: Apache-2.0 */
// Optional enhancement of the floating bar ("barStyle": "floating", body.bar-floating):
// a finger (or a mouse) pressed on the bar and dragged moves the lens from item to item,
// with a short vibration where the device has one; lifting it over an item selects that
// tab, exactly as a tap on it would (the item's own form is submitted: app.js sends it
// as one request); lifting it outside the bar, or back over the tab already selected,
// selects nothing. A tap stays a tap, and the keyboard and screen readers are not
// involved. A tap also glides the lens from the old item to the new one.
(() => {
  "use strict";
  if (!("PointerEvent" in window)) return;

  // How far a press moves sideways before it is a scrub rather than a tap.
  const scrubAfter = 8;
  // How far above and below the bar a finger may stray and still be over it.
  const slack = 16;
  // How long a click that follows a scrub is ignored (the browser's own click of the
  // item the finger went down on).
  const clickQuiet = 600;

  const floating = () => document.body && document.body.classList.contains("bar-floating");
  const barOf = (element) => element instanceof Element && element.closest("nav.tab-bar");
  const isShown = (element) => element.getBoundingClientRect().width > 0;
  // The item shown selected at the width in use (More, for a tab it holds).
  function chosenItem(nav) {
    const more = matchMedia("(min-width: 768px)").matches ? "is-selected-regular" : "is-selected-compact";
    return [...nav.querySelectorAll(".tab-item > .tab")].find((tab) => isShown(tab)
      && (tab.classList.contains("is-selected") || tab.classList.contains(more))) || null;
  }
  const items = (nav) => [...nav.querySelectorAll(".tab-item > .tab")].filter((tab) => !tab.disabled && isShown(tab));

  // The item under a point of the screen, or null outside the bar.
  function itemAt(nav, x, y) {
    for (const tab of items(nav)) {
      const box = tab.closest(".tab-item").getBoundingClientRect();
      if (x >= box.left && x < box.right && y >= box.top - slack && y <= box.bottom + slack) return tab;
    }
    return null;
  }

  // The gliding lens: one highlight on the item list, placed over `tab` (the capsule's
  // items only: the circle apart has a lens of its own).
  function placeLens(nav, tab, glide) {
    const list = nav.querySelector(".tab-items");
    if (!list) return;
    if (!tab || tab.closest(".is-apart")) {
      nav.classList.remove("has-moving-lens", "lens-glides");
      return;
    }
    const origin = list.getBoundingClientRect();
    const box = tab.getBoundingClientRect();
    const inset = 4;
    nav.classList.toggle("lens-glides", glide);
    list.style.setProperty("--lens-left", `${box.left - origin.left + inset}px`);
    list.style.setProperty("--lens-width", `${Math.max(0, box.width - 2 * inset)}px`);
    nav.classList.add("has-moving-lens");
  }
  function dropLens(nav) {
    nav.classList.remove("has-moving-lens", "lens-glides");
    for (const tab of nav.querySelectorAll(".is-scrub-target")) tab.classList.remove("is-scrub-target");
  }

  let press = null;
  let quietUntil = 0;
  // The item selected when the last press began: a tap's lens glides from it (app.js
  // shows the tapped item selected as the finger lifts, before the click).
  let chosenAtPress = [];

  document.addEventListener("pointerdown", (event) => {
    // A new gesture: whatever click the last one left has come by now.
    quietUntil = 0;
    if (!floating() || !event.isPrimary || event.button !== 0) return;
    const nav = barOf(event.target);
    // The items marked selected and how, not yet which is shown (that would lay the
    // page out under the finger).
    chosenAtPress = nav ? [...nav.querySelectorAll(".tab-item > .tab")]
      .map((tab) => [tab, ["is-selected", "is-selected-compact", "is-selected-regular"]
        .filter((name) => tab.classList.contains(name))])
      .filter(([, marks]) => marks.length) : [];
    const tab = nav && event.target.closest(".tab-item > .tab");
    if (!tab || tab.disabled) return;
    press = { id: event.pointerId, nav, start: tab, x: event.clientX, scrubbing: false, over: tab };
  }, { passive: true });

  document.addEventListener("pointermove", (event) => {
    if (!press || event.pointerId !== press.id) return;
    const { nav } = press;
    if (!press.scrubbing) {
      if (Math.abs(event.clientX - press.x) < scrubAfter) return;
      press.scrubbing = true;
      // The bar takes the pointer from here on, so the item pressed first gets no click.
      try { nav.setPointerCapture(event.pointerId); } catch { /* the pointer is gone */ }
      placeLens(nav, chosenItem(nav), false);
      // The lens is placed before it glides.
      void nav.offsetWidth;
    }
    const over = itemAt(nav, event.clientX, event.clientY);
    if (over === press.over) return;
    if (press.over) press.over.classList.remove("is-scrub-target");
    press.over = over;
    if (over) {
      over.classList.add("is-scrub-target");
      if (navigator.vibrate) navigator.vibrate(8);
    }
    placeLens(nav, over || chosenItem(nav), true);
  });

  function finish(event, lifted) {
    if (!press || event.pointerId !== press.id) return;
    const { nav, scrubbing } = press;
    const target = lifted ? itemAt(nav, event.clientX, event.clientY) : null;
    press = null;
    if (!scrubbing) return;
    quietUntil = performance.now() + clickQuiet;
    try { nav.releasePointerCapture(event.pointerId); } catch { /* already released */ }
    if (!target || target === chosenItem(nav) || !target.form) {
      placeLens(nav, chosenItem(nav), true);
      setTimeout(() => dropLens(nav), 250);
      return;
    }
    // As a tap: the item's own submission (app.js turns it into one request).
    target.form.requestSubmit(target);
    dropLens(nav);
  }
  document.addEventListener("pointerup", (event) => finish(event, true));
  document.addEventListener("pointercancel", (event) => finish(event, false));

  // The click the browser sends after a scrub is not a tap.
  document.addEventListener("click", (event) => {
    if (performance.now() < quietUntil && barOf(event.target)) {
      quietUntil = 0;
      event.preventDefault();
      event.stopImmediatePropagation();
    }
  }, true);

  // A tap: the lens glides from the selected item to the tapped one while the page comes.
  document.addEventListener("click", (event) => {
    if (!floating() || event.defaultPrevented) return;
    const nav = barOf(event.target);
    const tab = nav && event.target.closest(".tab-item > .tab");
    const more = matchMedia("(min-width: 768px)").matches ? "is-selected-regular" : "is-selected-compact";
    const before = chosenAtPress.find(([item, marks]) => item.isConnected && isShown(item)
      && (marks.includes("is-selected") || marks.includes(more)));
    const from = nav && (before ? before[0] : chosenItem(nav));
    chosenAtPress = [];
    if (!tab || tab.disabled || !from || from === tab) return;
    placeLens(nav, from, false);
    void nav.offsetWidth;
    placeLens(nav, tab, true);
  }, true);
})();
