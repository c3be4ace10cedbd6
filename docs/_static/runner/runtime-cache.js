// The runtime's cache: a service worker for this folder (_static/runner/)
// only, registered by python.js at the first start of Python.  What the
// page's worker fetches to start Python (Pyodide, the wheels, the worker's own
// files) and later (viz.js, marked) is kept in Cache Storage, so that a later
// start, on this page or another page of the site, downloads nothing, and
// works with no connection at all.  The first start does not wait for this
// worker to be active: once its first cell has run, python.js copies what
// that start fetched (and viz.js, marked) into the cache.  Pages themselves are outside its scope: it never changes
// how a page loads.
//
// Files whose names carry their version (pyodide-314.0.7/, viz-3.31.0/,
// marked-18.2.1/, d3-7.9.0/, plot-0.6.17/, the bundle's chunks, named after
// their content (queue-LYAROSNT.js, the editor's among them), the wheels:
// micrograd's is named after the source hash) come from the cache first.  The
// runner's other files (runner.js, worker.js, kernel.py, ...) come from the network first,
// so that a new build is used at once, and from the cache when the network
// fails.  A private window has its own, empty Cache Storage, dropped when the
// window closes: it downloads again.

const CACHE = "micrograd-runtime";
const VERSIONED = /\/(pyodide|viz|marked|d3|plot)-[^/]+\/|-[A-Z0-9]{8}\.js$|\.whl$/;

self.addEventListener("install", () => self.skipWaiting());
self.addEventListener("activate", (event) => event.waitUntil(self.clients.claim()));

self.addEventListener("fetch", (event) => {
  const url = new URL(event.request.url);
  if (event.request.method !== "GET" || url.origin !== self.location.origin) return;
  event.respondWith(VERSIONED.test(url.pathname) ? cacheFirst(event) : networkFirst(event));
});

/** The request's URL without its query (?v=...), so that one file is one entry. */
const key = (request) => {
  const url = new URL(request.url);
  url.search = "";
  return url.href;
};

/**
 * Keep a copy of the response in the cache, without holding the response back:
 * the page gets it as it arrives (Pyodide compiles its WebAssembly while it
 * downloads), and the copy is written alongside.
 */
function keep(event, cache, response) {
  if (response.ok) event.waitUntil(cache.put(key(event.request), response.clone()));
  return response;
}

async function cacheFirst(event) {
  const cache = await caches.open(CACHE);
  const cached = await cache.match(key(event.request));
  return cached || keep(event, cache, await fetch(event.request));
}

async function networkFirst(event) {
  const cache = await caches.open(CACHE);
  try {
    return keep(event, cache, await fetch(event.request));
  } catch (error) {
    const cached = await cache.match(key(event.request));
    if (cached) return cached;
    throw error;
  }
}
