// The page's service worker: the shell (every file the server serves, listed by the
// server in SHELL when it reads this file: server/net/static.py) kept in a cache, so
// the page opens without a network and says that it is offline. Network first: online,
// every file is the server's newest (mostly a 304); the cache answers only when the
// network does not. A new version of any file makes a new VERSION, hence a new cache.

const VERSION = "__VERSION__";
const SHELL = ["__SHELL__"];
const CACHE = `pasyans-${VERSION}`;

self.addEventListener("install", (event) => {
  event.waitUntil(
    caches
      .open(CACHE)
      .then((cache) => cache.addAll(SHELL))
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((keys) => Promise.all(keys.filter((key) => key !== CACHE).map((key) => caches.delete(key))))
      .then(() => self.clients.claim()),
  );
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== self.location.origin || !SHELL.includes(url.pathname)) return;
  event.respondWith(
    fetch(request)
      .then((response) => {
        if (response.ok) {
          const copy = response.clone();
          caches.open(CACHE).then((cache) => cache.put(url.pathname, copy));
        }
        return response;
      })
      .catch(() => caches.match(url.pathname).then((hit) => hit || caches.match("/"))),
  );
});
