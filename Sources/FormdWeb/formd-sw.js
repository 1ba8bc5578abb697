// formd-sw.js: the service worker that lets formd's forms load and work offline (docs/CLIENT.md,
// "Offline"). formd serves it at `/formd-sw.js`, so its scope covers the page at `/`; the page
// (`/client/page.js`) registers it. It keeps, in the Cache API:
//
//   * the client: formd.js, formd.css, formd-engine.js, formd-engine.wasm (and the page: `/`,
//     page.js, page.css): network first, so an upgraded formd is used at once, the cached copy
//     when the server cannot be reached; `?v=<digest>` URLs never change: cache first;
//   * every form definition and form list the page loaded (`GET /forms`, `GET /forms/{id}...`):
//     network first, so a new version is seen when online, the cached copy offline;
//   * the pages it controls (navigations in its scope): network first.
//
// It never caches anything else: validate and evaluate answers (POST) go to the network
// untouched, and so does every other request.
//
// An app on another origin that embeds formd's forms cannot use this worker (a service worker
// serves its own origin's pages). It opts in from its own worker:
//
//   self.FORMD_SERVER = "https://forms.example/";            // where formd is
//   importScripts("https://forms.example/formd-sw.js");
//
// (`self.FORMD_CACHE_PAGES = false` first if that worker caches its pages itself.)
"use strict";

(() => {
  const server = new URL(self.FORMD_SERVER || "./", self.location).href.replace(/\/?$/, "/");
  const cachePages = self.FORMD_CACHE_PAGES !== false;
  const CACHE = "formd-offline-v1";
  const sameOrigin = new URL(server).origin === self.location.origin;
  // Installed with the worker, so a page that loaded once has them all.
  const client = ["client/formd.js", "client/formd.css", "client/formd-engine.js", "client/formd-engine.wasm"];
  const page = sameOrigin ? ["", "client/page.js", "client/page.css"] : [];

  /** Whether formd's offline worker keeps this GET: the client, the page, the forms. */
  function kept(url) {
    if (!url.href.startsWith(server)) return false;
    const path = url.href.slice(server.length).split(/[?#]/)[0];
    return path === "" || path === "forms" || path.startsWith("client/") || /^forms\/[^/]+$/.test(path);
  }

  async function put(request, response) {
    if (!response || response.status !== 200 || response.type === "opaque") return;
    const cache = await caches.open(CACHE);
    await cache.put(request, response);
  }

  /** The network's answer (kept for next time), or the kept one when there is none. */
  async function networkFirst(request, fallbackIgnoringQuery) {
    try {
      const response = await fetch(request);
      if (response.status === 200) put(request, response.clone()).catch(() => {});
      return response;
    } catch (error) {
      const cache = await caches.open(CACHE);
      const hit = (await cache.match(request, { ignoreVary: true }))
        || (fallbackIgnoringQuery && (await cache.match(request, { ignoreVary: true, ignoreSearch: true })));
      if (hit) return hit;
      throw error;
    }
  }

  async function cacheFirst(request) {
    const cache = await caches.open(CACHE);
    const hit = await cache.match(request, { ignoreVary: true });
    if (hit) return hit;
    const response = await fetch(request);
    if (response.status === 200) put(request, response.clone()).catch(() => {});
    return response;
  }

  self.addEventListener("install", (event) => {
    event.waitUntil((async () => {
      const cache = await caches.open(CACHE);
      // Each on its own: a page turned off (`ui.enabled` false, 404) must not stop the rest.
      await Promise.all([...client, ...page].map(async (path) => {
        try {
          const response = await fetch(new URL(path, server).href, { mode: "cors", cache: "no-cache" });
          if (response.status === 200) await cache.put(new URL(path, server).href, response);
        } catch { /* kept the next time it loads */ }
      }));
      await self.skipWaiting();
    })());
  });

  self.addEventListener("activate", (event) => {
    event.waitUntil((async () => {
      for (const name of await caches.keys()) if (name.startsWith("formd-offline-") && name !== CACHE) await caches.delete(name);
      await self.clients.claim();
    })());
  });

  self.addEventListener("fetch", (event) => {
    const request = event.request;
    if (request.method !== "GET") return; // validate, evaluate: never kept
    const url = new URL(request.url);
    if (kept(url)) {
      event.respondWith(url.searchParams.has("v") ? cacheFirst(request) : networkFirst(request, url.href.slice(server.length).split("?")[0] === ""));
    } else if (cachePages && request.mode === "navigate" && url.origin === self.location.origin) {
      event.respondWith(networkFirst(request, true));
    }
  });

  // formd.js names what a page loaded before this worker controlled it (the first visit):
  // `{type: "formd:keep", urls: [...]}`; the answer (on the message's port) says when they are kept.
  self.addEventListener("message", (event) => {
    const data = event.data;
    if (!data || data.type !== "formd:keep" || !Array.isArray(data.urls)) return;
    event.waitUntil((async () => {
      const cache = await caches.open(CACHE);
      let keptCount = 0;
      for (const u of data.urls) {
        try {
          const url = new URL(u);
          const page = url.href.startsWith(self.registration.scope); // the page itself, in this worker's scope
          if (!kept(url) && !(cachePages && page)) continue;
          const response = await fetch(url.href, { mode: url.origin === self.location.origin ? "same-origin" : "cors", credentials: "same-origin" });
          if (response.status === 200) { await cache.put(url.href, response); keptCount++; }
        } catch { /* offline already: nothing to keep */ }
      }
      if (event.ports && event.ports[0]) event.ports[0].postMessage({ type: "formd:kept", count: keptCount });
    })());
  });
})();
