{% autoescape off %}// The site's service worker, served at /sw.js (notifications.push.views.service_worker)
// so that it controls every page. It
// - keeps the static shell and the offline page when it installs;
// - fetches pages from the network first, and shows the offline page for a
//   page it cannot fetch;
// - keeps the last My games list a page fetched (the My games page, the
//   lobby's and My games' live refresh), for the offline page to name the
//   games; logging out forgets it;
// - shows web push notifications, and opens (or focuses) a notification's page when clicked.
"use strict";

const SHELL_CACHE = "shell-v1";
const GAMES_CACHE = "last-games";
const SHELL = {{ shell }};
const GAMES_LISTS = {{ games_lists }};
const OFFLINE_URL = {{ offline_url }};
const LAST_GAMES_KEY = {{ last_games_key }};
const LOGOUT_URL = {{ logout_url }};
const START_URL = {{ start_url }};
const ICON = {{ icon }};
const DEFAULT_TITLE = {{ default_title }};

self.addEventListener("install", (event) => {
  event.waitUntil(
    caches.open(SHELL_CACHE)
      .then((cache) => cache.addAll(SHELL))
      .then(() => self.skipWaiting())
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches.keys()
      .then((keys) => Promise.all(keys.filter((key) => key.startsWith("shell-") && key !== SHELL_CACHE)
        .map((key) => caches.delete(key))))
      .then(() => self.clients.claim())
  );
});

function isGamesList(url) {
  return GAMES_LISTS.includes(url.pathname);
}

function keepGamesList(response) {
  if (!response.ok || response.redirected) return Promise.resolve(); // e.g. the login page after a logout
  return response.text().then((html) => caches.open(GAMES_CACHE).then((cache) => cache.put(LAST_GAMES_KEY,
    new Response(html, { headers: { "Content-Type": "text/html; charset=utf-8", "X-Kept-At": new Date().toISOString() } }))));
}

async function page(event, url) {
  try {
    const response = await fetch(event.request);
    if (isGamesList(url)) event.waitUntil(keepGamesList(response.clone()));
    return response;
  } catch (error) {
    const offline = await caches.match(OFFLINE_URL, { cacheName: SHELL_CACHE });
    return offline || Response.error();
  }
}

async function shellFile(event) {
  try {
    const response = await fetch(event.request);
    if (response.ok) {
      const copy = response.clone();
      event.waitUntil(caches.open(SHELL_CACHE).then((cache) => cache.put(event.request, copy)));
    }
    return response;
  } catch (error) {
    const kept = await caches.match(event.request, { cacheName: SHELL_CACHE, ignoreSearch: true });
    if (kept) return kept;
    throw error;
  }
}

async function gamesList(event) {
  const response = await fetch(event.request);
  event.waitUntil(keepGamesList(response.clone()));
  return response;
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.method === "POST" && url.pathname === LOGOUT_URL) {
    event.waitUntil(caches.delete(GAMES_CACHE)); // the next player on this device sees none of these games
    return;
  }
  if (request.method !== "GET") return;
  if (request.mode === "navigate") {
    event.respondWith(page(event, url));
  } else if (SHELL.includes(url.pathname)) {
    event.respondWith(shellFile(event));
  } else if (isGamesList(url)) {
    event.respondWith(gamesList(event));
  }
});

// A page tells its language: the kept offline page follows it.
async function offlinePageIn(language) {
  const cache = await caches.open(SHELL_CACHE);
  const kept = await cache.match(OFFLINE_URL);
  if (kept && kept.headers.get("Content-Language") === language) return;
  try {
    const response = await fetch(OFFLINE_URL, { credentials: "same-origin" });
    if (response.ok) await cache.put(OFFLINE_URL, response);
  } catch (error) { /* offline: the kept one stays */ }
}

self.addEventListener("message", (event) => {
  const data = event.data || {};
  if (data.type === "page-language" && typeof data.language === "string") {
    event.waitUntil(offlinePageIn(data.language));
  }
});

// A push: {title, body, url, tag} (notifications.push.channel.payload).
self.addEventListener("push", (event) => {
  let data = {};
  try {
    data = event.data ? event.data.json() : {};
  } catch (error) {
    data = { body: event.data.text() };
  }
  const options = {
    body: data.body || "",
    icon: ICON,
    data: { url: data.url || START_URL },
  };
  if (data.tag) {
    options.tag = data.tag; // a newer notification of the same game replaces the older one...
    options.renotify = true; // ...and still rings
  }
  event.waitUntil(self.registration.showNotification(data.title || DEFAULT_TITLE, options));
});

// Only this site's pages open from a notification (the path of its URL, on this origin).
function pageOf(notification) {
  const wanted = new URL((notification.data && notification.data.url) || START_URL, self.location.origin);
  return new URL(wanted.pathname + wanted.search + wanted.hash, self.location.origin).href;
}

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const target = pageOf(event.notification);
  event.waitUntil(
    self.clients.matchAll({ type: "window", includeUncontrolled: true }).then((windows) => {
      const open = windows.find((client) => client.url === target);
      if (open) return open.focus();
      return self.clients.openWindow(target);
    })
  );
});
{% endautoescape %}
