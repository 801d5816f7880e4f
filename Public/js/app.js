// Optional enhancement: everything works without this file.
// Submits the tab bar without a full page reload, swapping <main> and the bar.
(() => {
  "use strict";
  if (!("fetch" in window) || !("DOMParser" in window)) return;
  // Marks pages where the enhancement runs (styles and the browser tests can tell).
  document.documentElement.classList.add("js");

  async function navigate(response) {
    const text = await response.text();
    const doc = new DOMParser().parseFromString(text, "text/html");
    const main = doc.querySelector("main");
    const bar = doc.querySelector("nav.tab-bar");
    const header = doc.querySelector(".app-header");
    if (!main || !bar || !header) { window.location.href = response.url; return; }
    const swap = () => {
      document.querySelector("main").replaceWith(main);
      document.querySelector("nav.tab-bar").replaceWith(bar);
      document.querySelector(".app-header").replaceWith(header);
      document.title = doc.title;
      window.scrollTo(0, 0);
    };
    if (document.startViewTransition && !matchMedia("(prefers-reduced-motion: reduce)").matches) {
      document.startViewTransition(swap);
    } else {
      swap();
    }
  }

  document.addEventListener("submit", async (event) => {
    const form = event.target;
    if (!(form instanceof HTMLFormElement) || !form.closest("nav.tab-bar")) return;
    event.preventDefault();
    const body = new URLSearchParams(new FormData(form, event.submitter));
    try {
      const response = await fetch(form.action, {
        method: "POST", body, credentials: "same-origin", redirect: "follow",
        headers: { "Content-Type": "application/x-www-form-urlencoded" },
      });
      if (!response.ok || !response.redirected) { window.location.href = response.url; return; }
      history.pushState(null, "", response.url);
      await navigate(response);
    } catch {
      form.submit();
    }
  });

  window.addEventListener("popstate", () => window.location.reload());
})();
