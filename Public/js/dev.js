/* SPDX-License-Identifier: Apache-2.0 */
// Development mode only (--dev): the open page follows the files as they are saved. A
// template, locale or tab-file change reloads the page where it was scrolled to; a
// stylesheet is swapped without a reload, so the page keeps its state; an icon is swapped
// where the page shows it; a file that does not load shows its error over the page until
// it is fixed. The events come over the live channel (live.js hands them on).
(() => {
  "use strict";
  const scrollKey = "tabserver-dev-scroll";
  const here = () => window.location.pathname + window.location.search;

  // Back where the page was before the reload this script asked for.
  try {
    const saved = JSON.parse(window.sessionStorage.getItem(scrollKey) || "null");
    window.sessionStorage.removeItem(scrollKey);
    if (saved && saved.path === here()) {
      window.addEventListener("load", () => window.scrollTo(saved.x, saved.y), { once: true });
    }
  } catch (_) { /* storage off: a reload starts at the top */ }

  function reload() {
    try {
      window.sessionStorage.setItem(scrollKey, JSON.stringify({ path: here(), x: window.scrollX, y: window.scrollY }));
    } catch (_) { /* storage off */ }
    window.location.reload();
  }

  // The path of a URL on this site, without its version query.
  const pathOf = (url) => { try { return new URL(url, window.location.href).pathname; } catch (_) { return ""; } };

  function swapStylesheet(change) {
    for (const link of document.querySelectorAll('link[rel="stylesheet"]')) {
      if (pathOf(link.href) !== change.path) continue;
      // The new one first, the old one out once it applies: no unstyled moment.
      const fresh = link.cloneNode();
      fresh.href = change.url;
      fresh.addEventListener("load", () => link.remove(), { once: true });
      link.after(fresh);
    }
    document.documentElement.dataset.devStylesheet = change.url;
  }

  function swapIcon(change) {
    for (const element of document.querySelectorAll("[style], img[src], link[href]")) {
      if (element.hasAttribute("src") && pathOf(element.getAttribute("src")) === change.path) {
        element.setAttribute("src", change.url);
      }
      if (element.tagName === "LINK" && pathOf(element.getAttribute("href")) === change.path) {
        element.setAttribute("href", change.url);
      }
      const style = element.getAttribute("style");
      if (style && style.includes(change.path)) {
        // url('/icons/x.svg?v=…') → the new version.
        element.setAttribute("style", style.split(/url\(['"]?([^'")]+)['"]?\)/).map((part, index) =>
          index % 2 === 1 ? `url('${pathOf(part) === change.path ? change.url : part}')` : part).join(""));
      }
    }
    document.documentElement.dataset.devIcon = change.url;
  }

  function showError(problem) {
    let panel = document.getElementById("tabserver-dev-error");
    if (!panel) {
      panel = document.createElement("div");
      panel.id = "tabserver-dev-error";
      panel.setAttribute("role", "alert");
      Object.assign(panel.style, {
        position: "fixed", inset: "0", zIndex: "2147483647", overflow: "auto", padding: "24px",
        background: "rgba(20, 20, 24, 0.96)", color: "#f5f5f7", font: "14px/1.45 ui-monospace, monospace",
      });
      document.body.append(panel);
    }
    panel.replaceChildren();
    const heading = document.createElement("h1");
    heading.textContent = "This file does not load";
    Object.assign(heading.style, { font: "600 18px system-ui, sans-serif", margin: "0 0 12px", color: "#ff6961" });
    const where = document.createElement("p");
    where.className = "dev-error-where";
    where.textContent = problem.file + (problem.line ? `:${problem.line}` + (problem.column ? `:${problem.column}` : "") : "");
    const reason = document.createElement("p");
    reason.className = "dev-error-reason";
    reason.textContent = problem.reason;
    const excerpt = document.createElement("pre");
    excerpt.className = "dev-error-excerpt";
    Object.assign(excerpt.style, { background: "#000", padding: "12px", overflowX: "auto" });
    for (const line of problem.excerpt || []) {
      const row = document.createElement("div");
      row.textContent = `${String(line.number).padStart(4)} │ ${line.text}`;
      if (line.isError) row.style.background = "rgba(255, 105, 97, 0.25)";
      excerpt.append(row);
      if (line.isError && line.caret) {
        const caret = document.createElement("div");
        caret.textContent = " ".repeat(7 + line.caret) + "^";
        caret.style.color = "#ff6961";
        excerpt.append(caret);
      }
    }
    const note = document.createElement("p");
    note.textContent = "The server keeps running; this page comes back by itself once the file is fixed.";
    Object.assign(note.style, { font: "13px system-ui, sans-serif", opacity: "0.8" });
    panel.append(heading, where, reason, excerpt, note);
    document.documentElement.dataset.devError = "shown";
  }

  window.addEventListener("tabserver-dev", (event) => {
    const change = event.detail || {};
    switch (change.kind) {
      case "stylesheet": swapStylesheet(change); break;
      case "icon": swapIcon(change); break;
      case "error": showError(change); break;
      default: reload();
    }
  });
})();
