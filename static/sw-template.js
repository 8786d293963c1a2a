// Skill Check's service worker: the whole app from the cache, one build at a time.
// build.py writes dist/sw.js from this file, filling VERSION (a hash of every file of the build) and
// PRECACHE ([url, sha256] for each file). Any change to any file changes this script, so the
// browser installs the new worker beside the old one; it waits until the player accepts the
// reload (SKIP_WAITING from static/js/sw-register.js), so a page never mixes two builds.

const VERSION = "__CACHE_VERSION__";
const PRECACHE = "__PRECACHE__";
// [packed url, unpacked url]: the start-up snapshot, which the page would otherwise gunzip on its
// main thread at every start (12.8 MB, its pages that are not zeros; with all 31.5 MB, that was
// about half a second on a phone before it could roll). The worker unpacks it once, when it
// installs, from the copy it has just verified; pages read that.
const UNPACKED = "__UNPACKED__";

// Cache storage is shared by the whole origin: name caches by scope too, so two copies of the app
// under different sub-paths of one host never delete each other's files.
const PREFIX = "skillcheck-";
const SCOPE = self.registration.scope;
const CACHE = `${PREFIX}${VERSION} ${SCOPE}`;
const REVISION = "X-Skillcheck-Revision";

self.addEventListener("install", (event) => {
  event.waitUntil(precache());
});

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) {
      if (name !== CACHE && name.startsWith(PREFIX) && name.endsWith(` ${SCOPE}`)) {
        await caches.delete(name);
      }
    }
    await self.clients.claim(); // the first install takes over the page that installed it
  })());
});

self.addEventListener("message", (event) => {
  if (event.data?.type === "SKIP_WAITING") self.skipWaiting();
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET" || new URL(request.url).origin !== self.location.origin) return;
  event.respondWith(fromCache(request));
});

async function fromCache(request) {
  const cache = await caches.open(CACHE);
  // A navigation may carry a query (?utm=..., a share link's fragment is never sent): the page is
  // the same file.
  const hit = await cache.match(request, { ignoreSearch: request.mode === "navigate" });
  if (hit) return hit;
  // No server has an unpacked copy: without ours, the page falls back to the packed one at once.
  if (UNPACKED.some(([, unpacked]) => new URL(unpacked, SCOPE).href === request.url)) {
    return new Response(null, { status: 404 });
  }
  return fetch(request);
}

// Fill this build's cache: reuse files an older build already verified, fetch the others, and
// check every byte against the build's hash so a half-deployed server can never be cached.
async function precache() {
  const cache = await caches.open(CACHE);
  const older = await olderCaches();
  await Promise.all(PRECACHE.map(async ([url, revision]) => {
    const response = (await reuse(older, url, revision)) ?? (await download(url, revision));
    await cache.put(url, response);
  }));
  await Promise.all(UNPACKED.map(([packed, unpacked]) => keepUnpacked(cache, packed, unpacked)));
}

// Only where a page can start from the snapshot (stack switching, as pyodide-snapshot.mjs asks):
// an iPhone never does, so it never stores 12.8 MB for nothing; nor does a browser with
// WebAssembly turned off. Failing (storage full) is no failure: pages then unpack the packed copy
// themselves, as on a first visit.
async function keepUnpacked(cache, packed, unpacked) {
  if (!("Suspending" in (globalThis.WebAssembly ?? {}))) return;
  try {
    const response = await cache.match(packed);
    const body = response.body.pipeThrough(new DecompressionStream("gzip"));
    // With the packed file's revision: it is that file, unpacked. A page reading the copy from
    // the cache itself checks by it that the copy is its build's.
    const headers = { "Content-Type": "application/octet-stream" };
    headers[REVISION] = response.headers.get(REVISION);
    await cache.put(unpacked, new Response(body, { headers }));
  } catch (error) {
    console.warn(`Skill Check: ${unpacked} not kept unpacked (${error})`);
  }
}

async function olderCaches() {
  const names = (await caches.keys()).filter((name) => name !== CACHE && name.startsWith(PREFIX));
  return Promise.all(names.map((name) => caches.open(name)));
}

async function reuse(older, url, revision) {
  for (const cache of older) {
    const response = await cache.match(url);
    if (response?.headers.get(REVISION) === revision) return response;
  }
  return undefined;
}

async function download(url, revision) {
  for (const mode of ["no-cache", "reload"]) { // revalidate first; bypass the HTTP cache if stale
    const response = await fetch(new Request(url, { cache: mode }));
    if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
    const body = await response.arrayBuffer();
    if ((await sha256(body)) === revision) {
      const headers = new Headers(response.headers);
      headers.set(REVISION, revision);
      return new Response(body, { status: 200, headers });
    }
  }
  throw new Error(`${url} does not match this build: the server is still being updated`);
}

async function sha256(buffer) {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", buffer));
  return Array.from(digest, (byte) => byte.toString(16).padStart(2, "0")).join("");
}
