/* SPDX-License-Identifier: Apache-2.0 */
// The service worker: optional, like every script of the app (install.js registers it).
// The server serves this file at <base>/sw.js after one line of settings,
// `self.tabServerWorker = {enabled, version, base, shell, offline, keyHeader, workerHeader}`, so its
// bytes change whenever an asset does, and the browser installs the new worker.
//
// - The shell (CSS, scripts, icons: URLs with content hashes) is kept per version and
//   served from the cache.
// - Pages are fetched from the network first. The last page seen of each tab is kept
//   (and More, and the offline page), in a cache named by the visitor's cache key
//   (X-TabServer-Cache-Key, which the server sends on the pages this worker fetches:
//   navigation preloads, and its own requests marked with X-TabServer-Worker): when the
//   key changes (another session, signing in or out) every kept page is dropped first.
// - Offline, a page of a kept tab is that tab's last page with a notice saying as of
//   when; a tap in the bar (POST /select) goes to the tapped tab's kept page; anything
//   else is the offline page, which has the bar. Answers to posts are never kept.
"use strict";

const settings = self.tabServerWorker || { enabled: false, version: "none", base: "" };
const SHELL = "tabserver-shell-" + settings.version;
const PAGES = "tabserver-pages-";
const base = settings.base;
// Headers the kept copies carry: when the page was kept, and its address.
const KEPT_AT = "X-TabServer-Kept-At";
const KEPT_PATH = "X-TabServer-Kept-Path";

if (!settings.enabled) {
  // Turned off on the server: drop everything and unregister, so no old copy lingers.
  self.addEventListener("install", () => self.skipWaiting());
  self.addEventListener("activate", (event) => event.waitUntil((async () => {
    for (const name of await caches.keys()) if (name.startsWith("tabserver-")) await caches.delete(name);
    await self.registration.unregister();
  })()));
} else {
  self.addEventListener("install", (event) => event.waitUntil((async () => {
    const shell = await caches.open(SHELL);
    await shell.addAll(settings.shell);
    // The offline page, with this visitor's bar (not fatal: kept again on the next change of key).
    await keepOfflinePage().catch(() => {});
    // A new version takes over at once: no tab keeps running an old one.
    await self.skipWaiting();
  })()));

  self.addEventListener("activate", (event) => event.waitUntil((async () => {
    for (const name of await caches.keys()) {
      if (name.startsWith("tabserver-shell-") && name !== SHELL) await caches.delete(name);
    }
    if (self.registration.navigationPreload) await self.registration.navigationPreload.enable().catch(() => {});
    await self.clients.claim();
  })()));

  // A page shown before this worker controlled it (the first visit): install.js asks
  // for it to be kept. Fetched as a prefetch, which the server answers without counting
  // it as a visit.
  self.addEventListener("message", (event) => {
    const data = event.data || {};
    if (data.type !== "keep" || typeof data.url !== "string") return;
    const url = new URL(data.url, location.href);
    if (url.origin !== location.origin || !inApp(url.pathname)) return;
    event.waitUntil(fetch(url, { credentials: "same-origin", headers: { Purpose: "prefetch", ...mark() } })
      .then((response) => keep(response, null)).catch(() => {}));
  });

  self.addEventListener("fetch", (event) => {
    const request = event.request;
    const url = new URL(request.url);
    if (url.origin !== location.origin || !inApp(url.pathname)) return;
    const path = url.pathname.slice(base.length) || "/";
    if (request.mode === "navigate") {
      if (request.method === "GET") {
        if (!isPage(path)) return;
        event.respondWith(navigation(event, path + url.search));
      } else if (request.method === "POST") {
        event.respondWith(post(event, path));
      }
    } else if (request.method === "POST" && (path === "/select" || path === "/more/open")) {
      // The script's tap (app.js): the same as a tap without it.
      event.respondWith(post(event, path));
    } else if (request.method === "GET" && settings.shell.includes(url.pathname + url.search)) {
      event.respondWith(asset(request));
    }
  });

  // Web Push (the opt-in on More): the server's message sets the app badge and, where
  // the visitor asked for them, shows a notification. Its JSON is Declarative Web Push
  // when it has a notification (Safari 18.4+ shows those without this handler); a
  // badge-only message is {"app_badge": N}.
  self.addEventListener("push", (event) => event.waitUntil(pushed(event)));

  // The browser changed the subscription by itself (expired keys, a moved push
  // service): subscribe again with the server's key where the browser has not, and
  // tell the server which subscription the new one replaces.
  self.addEventListener("pushsubscriptionchange", (event) => event.waitUntil(resubscribed(event)));

  // A tap on a notification opens its page (one of this app's), in a window already
  // open when there is one.
  self.addEventListener("notificationclick", (event) => {
    event.notification.close();
    const target = new URL((event.notification.data || {}).navigate || base + "/", location.href);
    if (target.origin !== location.origin || !inApp(target.pathname)) return;
    event.waitUntil((async () => {
      const windows = await self.clients.matchAll({ type: "window", includeUncontrolled: true });
      const open = windows.find((client) => "focus" in client);
      if (open) {
        await open.focus();
        if ("navigate" in open) await open.navigate(target.href).catch(() => {});
        return;
      }
      await self.clients.openWindow(target.href);
    })());
  });
}

async function pushed(event) {
  let message = {};
  try {
    message = event.data ? event.data.json() : {};
  } catch {
    message = {};
  }
  const notification = message.web_push === 8030 && message.notification ? message.notification : null;
  let badge = typeof message.app_badge === "number" ? message.app_badge : null;
  if (badge === null && notification && notification.app_badge !== undefined) badge = Number(notification.app_badge);
  if (badge !== null && Number.isFinite(badge) && "setAppBadge" in navigator) {
    const done = badge > 0 ? navigator.setAppBadge(badge)
      : navigator.clearAppBadge ? navigator.clearAppBadge() : navigator.setAppBadge(0);
    await Promise.resolve(done).catch(() => {});
  }
  if (notification && typeof notification.title === "string") {
    await self.registration.showNotification(notification.title, {
      body: notification.body || "", tag: notification.tag, lang: notification.lang, dir: notification.dir || "auto",
      data: { navigate: notification.navigate },
    });
  }
}

// Where the opt-in (push.js) keeps the endpoint it posted, for browsers whose
// `pushsubscriptionchange` does not say which subscription changed.
const PUSH_ENDPOINT = "tabserver-push";

async function resubscribed(event) {
  if (!settings.pushKey) return;
  const endpointKey = base + "/push/endpoint";
  const kept = await caches.open(PUSH_ENDPOINT);
  const stored = await kept.match(endpointKey);
  const oldEndpoint = (event.oldSubscription && event.oldSubscription.endpoint) || (stored && await stored.text());
  if (!oldEndpoint) return;
  const key = Uint8Array.from(atob(settings.pushKey.replace(/-/g, "+").replace(/_/g, "/")), (c) => c.charCodeAt(0));
  const subscription = event.newSubscription
    || await self.registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: key });
  const response = await fetch(settings.resubscribe, {
    method: "POST", credentials: "same-origin", headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ ...subscription.toJSON(), oldEndpoint }),
  });
  if (response.ok) await kept.put(endpointKey, new Response(subscription.endpoint));
}

// The header that asks the server for the page's cache key.
function mark() {
  return { [settings.workerHeader]: "1" };
}

function inApp(pathname) {
  return base === "" || pathname === base || pathname.startsWith(base + "/");
}

// The app's pages (below the base path), not its feeds, probes or files.
function isPage(path) {
  return path === "/" || path === "/more" || path === "/more/edit" || path === "/offline" || path.startsWith("/tabs/");
}

// Where a page is kept: one entry per tab (its last page), More, the offline page.
function slot(path) {
  const tab = /^\/tabs\/([^/?#]+)/.exec(path);
  if (tab) return base + "/tabs/" + tab[1];
  if (path === "/more" || path === "/offline") return base + path;
  return null;
}

async function asset(request) {
  const kept = await caches.match(request, { cacheName: SHELL });
  return kept || fetch(request);
}

async function navigation(event, path) {
  let response;
  try {
    // The browser's preload (it started with the navigation) or, without one, the
    // worker's own request, marked; a redirect goes back to the browser to follow.
    response = (await event.preloadResponse)
      || (await fetch(event.request.url, { credentials: "same-origin", redirect: "manual", headers: mark() }));
  } catch {
    return offline(path);
  }
  event.waitUntil(keep(response.clone(), event.request).catch(() => {}));
  return response;
}

async function post(event, path) {
  // Read before the body goes to the network: needed if it cannot get there.
  const copy = event.request.clone();
  let response;
  try {
    // The script's post is sent marked (the page it is redirected to then carries the
    // key); a navigation's goes as the browser made it (its answer is never kept).
    let request = event.request;
    if (request.mode !== "navigate") {
      const headers = new Headers(request.headers);
      headers.set(settings.workerHeader, "1");
      request = new Request(request, { headers });
    }
    response = await fetch(request);
  } catch {
    if (path === "/select") {
      const form = await copy.formData().catch(() => null);
      const tab = form && form.get("tab");
      if (tab && /^[a-z0-9_-]+$/i.test(tab)) return Response.redirect(base + "/tabs/" + tab, 303);
    }
    if (path === "/more/open") return Response.redirect(base + "/more", 303);
    return offlinePage(503);
  }
  // The page a post was redirected to is a GET's answer and may be kept, and so is the
  // page the server sent for the script's tap in place of that redirect (app.js asks for
  // it: one round trip), which is that same GET's answer, named in TabServer-Location.
  // An answer to the post itself (a refusal, an error) never is.
  const followed = response.ok && !response.redirected && response.headers.get("TabServer-Location");
  if (response.redirected || followed) {
    event.waitUntil(keep(response.clone(), null, followed || null).catch(() => {}));
  }
  return response;
}

// Keeps a page's copy under the visitor's key; a new key drops every page kept before.
// One at a time, in the order the answers came, so two keys never race.
let keeping = Promise.resolve();
function keep(response, request, at) {
  const run = keeping.then(() => keepNow(response, request, at));
  keeping = run.catch(() => {});
  return run;
}

// `at`: the page's own address when it is not the response's (a post's page).
async function keepNow(response, request, at) {
  if (!response.ok || response.type !== "basic") return;
  if (request && (request.headers.get("Purpose") || request.headers.get("Sec-Purpose"))) return;
  if (!(response.headers.get("Content-Type") || "").startsWith("text/html")) return;
  const key = response.headers.get(settings.keyHeader);
  if (!key) return;
  const url = new URL(at || response.url, location.origin);
  const path = url.pathname.slice(base.length) || "/";
  const where = slot(path);
  if (!where) return;
  const cache = await pagesFor(key, where !== base + "/offline");
  const headers = new Headers({ "Content-Type": response.headers.get("Content-Type") });
  headers.set(KEPT_AT, String(Date.now()));
  headers.set(KEPT_PATH, base + path + url.search);
  await cache.put(where, new Response(await response.blob(), { headers }));
  // A last page of a tab is also where GET / goes offline.
  if (where !== base + "/offline") await cache.put(base + "/", new Response(null, { headers }));
}

// The cache of the visitor named by `key`, dropping every other visitor's pages (and,
// with `refresh`, keeping the new visitor's offline page). Pages kept for no one in
// particular (the key "anonymous": no session, no user) pass to the session that
// visitor starts; a session's pages never pass to anyone.
// At no moment do two visitors' caches exist side by side (a page shown offline in the
// meantime comes from one visitor or none): the pages that pass are read into memory,
// every other cache is deleted, and only then is the new one made.
async function pagesFor(key, refresh) {
  const name = PAGES + key;
  const others = (await caches.keys()).filter((other) => other.startsWith(PAGES) && other !== name);
  if (others.length === 0) return caches.open(name);
  const passing = [];
  if (others.includes(PAGES + "anonymous")) {
    const old = await caches.open(PAGES + "anonymous");
    for (const request of await old.keys()) {
      const response = await old.match(request);
      if (response) passing.push([request, response.headers, await response.blob()]);
    }
  }
  for (const other of others) await caches.delete(other);
  const cache = await caches.open(name);
  for (const [request, headers, body] of passing) {
    if (!(await cache.match(request))) await cache.put(request, new Response(body, { headers }));
  }
  // Another visitor now: their own offline page (with their bar), fetched in the background.
  if (refresh) keepOfflinePage().catch(() => {});
  return cache;
}

async function keepOfflinePage() {
  const response = await fetch(settings.offline, { credentials: "same-origin", headers: mark() });
  await keep(response, null);
}

// The kept pages: the one cache of the current visitor (nil before any page was kept).
async function pages() {
  const name = (await caches.keys()).find((candidate) => candidate.startsWith(PAGES));
  return name ? caches.open(name) : null;
}

async function offline(path) {
  const cache = await pages();
  if (cache) {
    if (path === "/" || path.startsWith("/?")) {
      const last = await cache.match(base + "/");
      const at = last && last.headers.get(KEPT_PATH);
      if (at) return Response.redirect(at, 303);
    }
    const where = slot(path);
    const kept = where && where !== base + "/offline" ? await cache.match(where) : null;
    if (kept) {
      const keptPath = kept.headers.get(KEPT_PATH);
      // The tab's last page is elsewhere in the tab: go there, so the address says what is shown.
      if (keptPath && keptPath !== base + path) return Response.redirect(keptPath, 303);
      return withNotice(kept);
    }
  }
  return offlinePage(200);
}

async function offlinePage(status) {
  const cache = await pages();
  const kept = cache && (await cache.match(base + "/offline"));
  if (kept) {
    return new Response(await kept.blob(), { status, headers: { "Content-Type": "text/html; charset=utf-8" } });
  }
  return new Response("Offline", { status: 503, headers: { "Content-Type": "text/plain; charset=utf-8" } });
}

// The kept page with "offline — shown as of 10:42" under its heading, in the page's own
// language (the text comes in the page, on install.js's tag; the time is the keeping's).
async function withNotice(kept) {
  let html = await kept.text();
  const at = new Date(Number(kept.headers.get(KEPT_AT)) || Date.now());
  const template = (/data-offline-notice="([^"]*)"/.exec(html) || [])[1];
  const lang = (/<html lang="([^"]*)"/.exec(html) || [])[1] || "en";
  if (template) {
    const today = new Date().toDateString() === at.toDateString();
    let when;
    try {
      when = today
        ? at.toLocaleTimeString(lang, { hour: "numeric", minute: "2-digit" })
        : at.toLocaleString(lang, { dateStyle: "medium", timeStyle: "short" });
    } catch {
      when = at.toISOString().slice(11, 16);
    }
    // The template is HTML-escaped text already; the time is escaped here.
    const text = template.replace("{time}", escapeHTML(when));
    const notice = `<div class="notice offline-notice" role="status"><p>${text}</p></div>`;
    html = html.replace(/<\/h1>/, (end) => end + "\n" + notice);
  }
  return new Response(html, {
    headers: { "Content-Type": "text/html; charset=utf-8", [KEPT_AT]: String(at.getTime()) },
  });
}

function escapeHTML(text) {
  return text.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);
}
