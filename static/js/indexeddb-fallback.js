// PyScript opens IndexedDB databases as it starts (a cache of the packages a page installs, and
// its file-system mounts): where it cannot, it never starts. That is where `indexedDB` is missing
// or refused (blocked by a policy, some private windows), where its open() throws, or where the
// open request fails. This page keeps nothing there: the log, the characters and the forms are in
// localStorage, and it installs no packages and mounts nothing. So there PyScript gets databases
// in memory instead, for this visit, and the page starts as usual.
//
// A module script before PyScript's own in the page's head (modules run in document order), so
// this is in place before PyScript's code runs at all.

let said = false;
function noted(why) {
  if (said) return;
  said = true;
  console.info(`Skill Check: no IndexedDB here (${why}); PyScript's databases are kept in `
    + "memory for this visit. The page keeps nothing in them.");
}

// A request that succeeds with `result` once its caller has set its handlers, as IDB's do.
function request(result) {
  const asked = { result, error: null, onsuccess: null, onerror: null };
  setTimeout(() => asked.onsuccess?.({ type: "success", target: asked }));
  return asked;
}

// An object store in memory: what PyScript's IDBMap asks of one.
function memoryStore() {
  const entries = new Map();
  return {
    get: (key) => request(entries.get(key)),
    getKey: (key) => request(entries.has(key) ? key : undefined),
    getAllKeys: () => request([...entries.keys()]),
    put(value, key) {
      entries.set(key, value);
      return request(key);
    },
    delete(key) {
      entries.delete(key);
      return request(undefined);
    },
    clear() {
      entries.clear();
      return request(undefined);
    },
    count: () => request(entries.size),
  };
}

const databases = new Map();

function memoryDatabase(name) {
  const stores = new Map();
  return {
    name,
    objectStoreNames: { get length() { return stores.size; }, contains: (store) => stores.has(store) },
    createObjectStore: (store) => stores.set(store, memoryStore()).get(store),
    transaction: () => ({ objectStore: (store) => stores.get(store) }),
    close() {},
  };
}

// indexedDB.open(name) in memory: "upgradeneeded" (with its transaction) the first time, then
// "success", as a new database does.
function openInMemory(name) {
  const known = databases.get(name);
  const database = known ?? memoryDatabase(name);
  databases.set(name, database);
  const opening = { result: database, error: null, transaction: null, onsuccess: null,
    onerror: null, onupgradeneeded: null, onblocked: null };
  setTimeout(() => {
    if (!known) {
      const upgrade = { oncomplete: null };
      opening.transaction = upgrade;
      opening.onupgradeneeded?.({ type: "upgradeneeded", target: opening });
      opening.transaction = null;
      upgrade.oncomplete?.({ type: "complete", target: upgrade });
    }
    opening.onsuccess?.({ type: "success", target: opening });
  });
  return opening;
}

// The browser's open(), with its events passed on to the caller's handlers; if it throws, or its
// request fails, a database in memory instead.
function guardedOpen(factory, open) {
  return (name, version) => {
    let real;
    try {
      real = open.call(factory, name, version);
    } catch (error) {
      noted(`open() threw ${error?.name ?? error}`);
      return openInMemory(name);
    }
    const opening = { result: undefined, error: null, transaction: null, onsuccess: null,
      onerror: null, onupgradeneeded: null, onblocked: null };
    const follow = (source) => {
      for (const type of ["success", "upgradeneeded", "blocked"]) {
        source[`on${type}`] = () => {
          opening.result = source.result;
          opening.transaction = source.transaction;
          opening[`on${type}`]?.({ type, target: opening });
        };
      }
    };
    follow(real);
    real.onerror = (event) => {
      event?.preventDefault?.();
      noted(`open() failed: ${real.error?.name ?? "an error"}`);
      follow(openInMemory(name));
    };
    return opening;
  };
}

function factoryOrWhyNot() {
  try {
    const factory = globalThis.indexedDB;
    return factory && typeof factory.open === "function" ? factory : "it is missing";
  } catch (error) {
    return `it is refused: ${error?.name ?? error}`; // Firefox, where the site may keep nothing
  }
}

const found = factoryOrWhyNot();
if (typeof found === "string") {
  noted(found);
  Object.defineProperty(globalThis, "indexedDB", {
    value: { open: openInMemory }, configurable: true, writable: true,
  });
} else {
  found.open = guardedOpen(found, found.open);
}
