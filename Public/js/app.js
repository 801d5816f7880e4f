// Optional enhancement: everything works without this file.
// Submits the tab bar without a full page reload, swapping <main> and the bar.
(() => {
  "use strict";
  if (!("fetch" in window) || !("DOMParser" in window)) return;
  // Marks pages where the enhancement runs (styles and the browser tests can tell).
  document.documentElement.classList.add("js");

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
    form.submit();
  }

  async function navigate(response, focusTab) {
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
      // Chosen with the keyboard: focus stays on the tab (as after a full page load it
      // could not), instead of falling back to the top of the document.
      if (focusTab) {
        bar.querySelector(`button[name="tab"][value="${CSS.escape(focusTab)}"]`)?.focus();
      }
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
    const submitter = event.submitter;
    const body = new URLSearchParams(new FormData(form, submitter));
    const focusTab = submitter && document.activeElement === submitter ? submitter.value : null;
    try {
      const response = await fetch(form.action, {
        method: "POST", body, credentials: "same-origin", redirect: "follow",
        headers: { "Content-Type": "application/x-www-form-urlencoded" },
      });
      // A refusal (expired form 403, bad request 400, 503...) is a page of its own:
      // let the browser post again and show it, as it would without this script.
      if (!response.ok || !response.redirected) { submitNatively(form, submitter); return; }
      history.pushState(null, "", response.url);
      await navigate(response, focusTab);
    } catch {
      submitNatively(form, submitter);
    }
  });

  window.addEventListener("popstate", () => window.location.reload());
})();
