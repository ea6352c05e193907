// The service worker: once the site has been visited, it opens and its hot-seat and computer
// games work without the network (docs/architecture.md, « Installable and offline »).
// scripts/build-client.sh fills in VERSION (a hash of the whole build) and ASSETS (every file of
// client/dist but index.html and this script), so that each deployment is a new worker, byte for
// byte, which the browser installs beside the old one.
//
// - Install: caches this build's files and its index.html in a cache of its own, all or none; an
//   index.html of another build (a deployment during the install) fails the install, which the
//   browser tries again later, so that the cache never mixes two builds.
// - Activate: at once (skipWaiting), deleting every other build's cache.
// - Pages (navigations to the client's routes: paths without an extension, but the relay's own):
//   the network first, as index.html is never cached by HTTP; offline, or when the relay is down
//   behind a proxy (5xx), the cached index.html.
// - This build's files: from the cache (their names are content hashes, or fixed for this build).
// - Anything else (/ws/…, /ice-servers, /health): not touched.
const VERSION = "{{VERSION}}";
const ASSETS = [{{ASSETS}}];
const CACHE = `moulin-${VERSION}`;
const PAGE = "/index.html";
const RELAY_PATHS = /^\/(ws|health|ice-servers)(\/|$)/;

self.addEventListener("install", (event) => {
  event.waitUntil((async () => {
    const cache = await caches.open(CACHE);
    const page = await fetch(PAGE, { cache: "no-cache" });
    if (!page.ok || !(await page.clone().text()).includes(`content="${VERSION}"`)) {
      throw new Error(`${PAGE} is not of build ${VERSION}`);
    }
    // Revalidated, not taken blindly from the HTTP cache (for the files without a hash).
    await cache.addAll(ASSETS.map((path) => new Request(path, { cache: "no-cache" })));
    await cache.put(PAGE, page);
    await self.skipWaiting();
  })());
});

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) {
      if (name !== CACHE) await caches.delete(name);
    }
    await self.clients.claim();
  })());
});

/** As the relay decides what is a file (signaling/src/static_files.rs, `has_extension`). */
function hasExtension(path) {
  const name = path.slice(path.lastIndexOf("/") + 1);
  const dot = name.lastIndexOf(".");
  return dot > 0 && dot < name.length - 1;
}

const cachedPage = async () => (await caches.open(CACHE)).match(PAGE);

async function page(request) {
  try {
    const response = await fetch(request);
    if (response.status < 500) return response;
    return (await cachedPage()) || response;
  } catch (offline) {
    const cached = await cachedPage();
    if (cached) return cached;
    throw offline;
  }
}

async function asset(request, path) {
  const cached = await (await caches.open(CACHE)).match(path);
  return cached || fetch(request);
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== self.location.origin) return;
  const path = url.pathname;
  if (request.mode === "navigate") {
    if (!RELAY_PATHS.test(path) && !hasExtension(path)) {
      event.respondWith(page(request));
    }
  } else if (ASSETS.includes(path)) {
    event.respondWith(asset(request, path));
  }
});
