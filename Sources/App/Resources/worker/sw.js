// PopcornSwirl's service worker (served at /sw.js, so it controls every page).
// - The app shell (/static/…, the offline page) comes from the cache first; posters too, in a
//   cache capped by count and bytes (least recently used out).
// - Pages come from the network first. After TIMEOUT without an answer, or with no connection, the
//   copy kept on this device is shown, marked "You're offline" with the time it was saved; an
//   address never kept shows the offline page, which lists what is.
// - A person's pages are kept per account (the scope `/offline/plan` names), and their plan —
//   My Lists, TV Favorites, their lists, every saved title's page, the last search — is kept in
//   the background, not only what they visit. Signing out deletes that account's pages and queue.
// - A library change that cannot reach the server is kept in a queue and sent when the connection
//   returns (a page load, the `online` event, Background Sync), with the Idempotency-Key it was
//   first sent with (so it is done once) and the moment it was made (so the newer change wins).
//   A change the server refuses stays in the queue, shown to the person until they dismiss it.
// A new release (RELEASE changes with this file, its settings and every file of the shell) replaces
// the caches. The server fills in RELEASE and the poster cap (OFFLINE_POSTERS, OFFLINE_POSTER_MB).
"use strict";

const RELEASE = "__RELEASE__";
const SHELL = "ps-shell-" + RELEASE;
const PAGES = "ps-pages-" + RELEASE + "-";
const POSTERS = "ps-posters";
const TIMEOUT = 3000;
const MAX_POSTERS = __MAX_POSTERS__;
const MAX_POSTER_BYTES = __MAX_POSTER_MB__ * 1024 * 1024;
const MAX_RECENT = 60;
const LIST_FRESH = 10 * 60 * 1000;
// Keeping a page (its copy, its record, its posters) waits this long after the page is answered,
// so it never competes with the page's own first paint (measured by scripts/pwa_paint).
const KEEP_AFTER = 2000;
const SHELL_FILES = [
  "/offline", "/static/app.css", "/static/app.js", "/static/icon.svg", "/static/icon-192.png", "/static/icon-512.png",
  "/static/icon-maskable-512.png", "/static/apple-touch-icon.png", "/static/manifest.webmanifest",
];
// The changes kept while offline: Favorite, Watched, a note, a rating (one form), Delete / Remove.
// Library changes, kept while offline: a title's, an episode's check, a season marked, Stopped.
const WRITES = /^\/library\/((movies|shows)\/\d+(\/remove)?|episodes\/\d+|shows\/\d+\/(watched|progress))$/;
// Pages never kept: the account's, the console's, uploads and downloads.
const NOT_KEPT = /^\/(account|admin|import|export|offline|api|shared)(\/|$)/;
const ACCOUNT_CHANGES = /^\/account\/(signin|signup|signout|delete)$/;

// ---------------------------------------------------------------- IndexedDB: pages, posters, queue

let opened = null;
function db() {
  if (!opened) {
    opened = new Promise(function (resolve, reject) {
      const open = indexedDB.open("popcornswirl", 1);
      open.onupgradeneeded = function () {
        const d = open.result;
        d.createObjectStore("pages", { keyPath: "key" }).createIndex("scope", "scope");
        d.createObjectStore("posters", { keyPath: "url" });
        d.createObjectStore("queue", { keyPath: "id", autoIncrement: true }).createIndex("scope", "scope");
        d.createObjectStore("meta", { keyPath: "name" });
      };
      open.onsuccess = function () { resolve(open.result); };
      open.onerror = function () { opened = null; reject(open.error); };
    });
  }
  return opened;
}

// One request in its own transaction; resolves with its result once the transaction commits.
async function idb(store, mode, work) {
  const d = await db();
  return new Promise(function (resolve, reject) {
    const t = d.transaction(store, mode);
    const request = work(t.objectStore(store));
    t.oncomplete = function () { resolve(request ? request.result : undefined); };
    t.onerror = t.onabort = function () { reject(t.error); };
  });
}

// The account whose pages and queue are in use: undefined until `/offline/plan` has said (after a
// sign-in, say), null for a browser without a profile, else the account's scope.
let scope;
async function currentScope() {
  if (scope === undefined) {
    const record = await idb("meta", "readonly", function (s) { return s.get("scope"); });
    if (record) scope = record.value;
  }
  return scope;
}
async function setScope(value) {
  scope = value;
  if (value !== undefined) forgotten.delete(value || "anonymous");
  await idb("meta", "readwrite", function (s) { return value === undefined ? s.delete("scope") : s.put({ name: "scope", value: value }); });
}
function pagesOf(who) { return PAGES + (who || "anonymous"); }

function notify(message) {
  return self.clients.matchAll({ type: "window" }).then(function (clients) {
    clients.forEach(function (client) { client.postMessage(message); });
  });
}

// ---------------------------------------------------------------- install and activate

self.addEventListener("install", function (event) {
  // Where the browser has static routing, pages and the shell race: the browser asks the network
  // (its HTTP cache first) at once, without waiting for this script to wake, and `page` / `shell`
  // below answer when the network fails or is slow (their own fetch of the request is the same
  // request, not a second one). Posters stay with `poster` below, which records their use for the
  // cap. Measured by scripts/pwa_paint.
  if (event.addRoutes) {
    event.addRoutes([
      { condition: { urlPattern: new URLPattern({ pathname: "/static/*" }) }, source: "race-network-and-fetch-handler" },
      { condition: { requestMode: "navigate" }, source: "race-network-and-fetch-handler" },
    ]).catch(function () {});
  }
  event.waitUntil(caches.open(SHELL)
    .then(function (cache) { return cache.addAll(SHELL_FILES.map(function (url) { return new Request(url, { cache: "reload" }); })); })
    .then(function () { return self.skipWaiting(); }));
});

self.addEventListener("activate", function (event) {
  event.waitUntil((async function () {
    for (const name of await caches.keys()) {
      if (name.startsWith("ps-") && name !== SHELL && name !== POSTERS && !name.startsWith(PAGES)) await caches.delete(name);
    }
    // The pages kept by the release before are gone with its caches: so is their record.
    const records = await idb("pages", "readonly", function (s) { return s.getAll(); });
    for (const page of records) {
      if (page.release !== RELEASE) await idb("pages", "readwrite", function (s) { return s.delete(page.key); });
    }
    if (self.registration.navigationPreload) await self.registration.navigationPreload.enable();
    await self.clients.claim();
  })());
});

// ---------------------------------------------------------------- fetch

self.addEventListener("fetch", function (event) {
  const request = event.request;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.method === "POST") {
    if (ACCOUNT_CHANGES.test(url.pathname)) event.respondWith(accountChange(request, url.pathname));
    else if (WRITES.test(url.pathname)) event.respondWith(sendOrKeep(event));
    return;
  }
  if (request.method !== "GET") return;
  if (url.pathname.startsWith("/static/") || url.pathname === "/offline") event.respondWith(shell(request));
  else if (url.pathname === "/posters") event.respondWith(poster(request));
  else if (request.mode === "navigate" && !NOT_KEPT.test(url.pathname)) event.respondWith(page(event));
  else if (request.mode === "navigate") event.respondWith(notKept(event));
});

// A page never kept (the account's, say): the network, else the offline page.
async function notKept(event) {
  try {
    return (await event.preloadResponse) || (await fetch(event.request));
  } catch (error) {
    return offlinePage();
  }
}

async function offlinePage() {
  return (await caches.match("/offline", { cacheName: SHELL }))
    || new Response("You’re offline, and this page is not saved on this device.", { status: 503, headers: { "Content-Type": "text/plain; charset=utf-8" } });
}

async function shell(request) {
  const cache = await caches.open(SHELL);
  const hit = await cache.match(request, { ignoreSearch: true });
  if (hit) return hit;
  const response = await fetch(request);
  if (response.ok) await cache.put(request, response.clone());
  return response;
}

function timeout(ms) { return new Promise(function (resolve) { setTimeout(function () { resolve(null); }, ms); }); }

async function page(event) {
  const request = event.request;
  const who = await currentScope();
  const cacheName = who === undefined ? null : pagesOf(who);
  // Read only when needed (slow or no answer): an answered page costs no cache read.
  const saved = function () {
    return cacheName ? caches.open(cacheName).then(function (cache) { return cache.match(request.url); }) : Promise.resolve(undefined);
  };
  const answered = (async function () { return (await event.preloadResponse) || (await fetch(request)); })();
  // Kept after the page is answered and painted, never before: the copy is taken before the page
  // reads the body.
  event.waitUntil(answered.then(function (response) {
    const type = response.headers.get("Content-Type") || "";
    if (!cacheName || response.status !== 200 || !type.startsWith("text/html")) return;
    const copy = response.clone();
    return timeout(KEEP_AFTER).then(function () { return keepPage(cacheName, who, request.url, copy, false); });
  }).catch(function () {}));
  try {
    const first = await Promise.race([answered, timeout(TIMEOUT)]);
    if (first) return first;
    // Slow: the saved copy now, if there is one; otherwise keep waiting for the network.
    const copy = await saved();
    return copy ? marked(copy, false) : await answered;
  } catch (error) {
    const copy = await saved();
    return copy ? marked(copy, true) : offlinePage();
  }
}

function unescapeHTML(text) {
  return text.replace(/&(#\d+|#x[0-9a-f]+|amp|lt|gt|quot|apos);/gi, function (all, name) {
    const named = { amp: "&", lt: "<", gt: ">", quot: "\"", apos: "'" }[name.toLowerCase()];
    if (named) return named;
    const code = name[1] === "x" || name[1] === "X" ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
    return String.fromCodePoint(code);
  });
}

async function keepPage(cacheName, who, url, response, planned) {
  if (forgotten.has(who || "anonymous")) return;
  const body = await response.text();
  const savedAt = new Date().toISOString();
  const headers = new Headers(response.headers);
  headers.set("X-Saved-At", savedAt);
  await (await caches.open(cacheName)).put(url, new Response(body, { status: 200, headers: headers }));
  const title = unescapeHTML(((/<title>([^<]*)<\/title>/).exec(body) || ["", ""])[1]).replace(/ · PopcornSwirl$/, "");
  const key = (who || "anonymous") + " " + url;
  const before = await idb("pages", "readonly", function (s) { return s.get(key); });
  await idb("pages", "readwrite", function (s) {
    return s.put({ key: key, scope: who || "anonymous", url: url, title: title, savedAt: savedAt, release: RELEASE, planned: planned || !!(before && before.planned) });
  });
  // Signed out while this page was being kept: what was just written goes with the rest.
  if (forgotten.has(who || "anonymous")) return forget(who);
  if (!planned) await trimRecent(cacheName, who || "anonymous");
  await keepPosters(body);
}

// Pages kept because they were visited (not the plan's): the newest MAX_RECENT stay.
async function trimRecent(cacheName, who) {
  const recent = (await idb("pages", "readonly", function (s) { return s.index("scope").getAll(who); }))
    .filter(function (p) { return !p.planned; })
    .sort(function (a, b) { return b.savedAt.localeCompare(a.savedAt); });
  const cache = await caches.open(cacheName);
  for (const old of recent.slice(MAX_RECENT)) {
    await cache.delete(old.url);
    await idb("pages", "readwrite", function (s) { return s.delete(old.key); });
  }
}

// A page's posters are kept with it, so it opens offline with its pictures.
async function keepPosters(body) {
  const cache = await caches.open(POSTERS);
  await recordUse();
  const found = body.match(/src="\/posters\?[^"]*"/g) || [];
  for (const attribute of found.slice(0, 80)) {
    const url = new URL(unescapeHTML(attribute.slice(5, -1)), self.location.origin).href;
    if (await cache.match(url)) {
      touched.add(url);
      continue;
    }
    try {
      const response = await fetch(url);
      if (response.ok) await keepPoster(cache, url, response);
    } catch (error) {
      break;
    }
  }
  await recordUse();
}

async function keepPoster(cache, url, response) {
  const blob = await response.clone().blob();
  await cache.put(url, response);
  await recordUse();
  await idb("posters", "readwrite", function (s) { return s.put({ url: url, bytes: blob.size, usedAt: Date.now() }); });
  const all = (await idb("posters", "readonly", function (s) { return s.getAll(); })).sort(function (a, b) { return a.usedAt - b.usedAt; });
  let bytes = all.reduce(function (sum, p) { return sum + p.bytes; }, 0);
  let count = all.length;
  for (const old of all) {
    if (count <= MAX_POSTERS && bytes <= MAX_POSTER_BYTES) break;
    await cache.delete(old.url);
    await idb("posters", "readwrite", function (s) { return s.delete(old.url); });
    count -= 1;
    bytes -= old.bytes;
  }
}

// A poster shown from the cache is recorded as used, in one write a moment later (not one per poster
// while the page loads).
const touched = new Set();
let touchTimer = null;
async function recordUse() {
  clearTimeout(touchTimer);
  touchTimer = null;
  const urls = Array.from(touched);
  touched.clear();
  if (!urls.length) return;
  const d = await db();
  const transaction = d.transaction("posters", "readwrite");
  const store = transaction.objectStore("posters");
  const now = Date.now();
  urls.forEach(function (url) {
    const request = store.get(url);
    request.onsuccess = function () { if (request.result) { request.result.usedAt = now; store.put(request.result); } };
  });
  await new Promise(function (resolve) { transaction.oncomplete = transaction.onerror = transaction.onabort = resolve; });
}

async function poster(request) {
  const cache = await caches.open(POSTERS);
  const hit = await cache.match(request.url);
  if (hit) {
    touched.add(request.url);
    if (!touchTimer) touchTimer = setTimeout(recordUse, KEEP_AFTER);
    return hit;
  }
  try {
    const response = await fetch(request);
    if (response.ok) await keepPoster(cache, request.url, response.clone());
    return response;
  } catch (error) {
    return new Response("", { status: 504 });
  }
}

// A copy from the cache, marked as such at the top of its main content.
async function marked(copy, offline) {
  const savedAt = copy.headers.get("X-Saved-At") || "";
  const html = await copy.text();
  const words = offline ? "You’re offline." : "The connection is slow.";
  const banner = "<p class=\"offline-banner\" role=\"status\"><strong>" + words + "</strong> This page was saved "
    + "<time datetime=\"" + savedAt + "\" data-local>" + savedAt + "</time>.</p>";
  return new Response(html.replace("<main id=\"main\">", banner + "<main id=\"main\">"), {
    status: 200, headers: { "Content-Type": "text/html; charset=utf-8", "X-Saved-At": savedAt },
  });
}

// ---------------------------------------------------------------- accounts

// Signing out (or deleting the account) removes its pages and queue from this browser first;
// any change of account leaves the scope unknown until `/offline/plan` names the new one.
// Counted when a change begins and when its answer (with its cookie) is back: a plan asked in
// between may still name the account being left, as its request carried the old cookie.
let accountChanges = 0;
async function accountChange(request, path) {
  accountChanges += 1;
  try {
    const who = await currentScope();
    if (path === "/account/signout" || path === "/account/delete") await forget(who);
    await setScope(undefined);
    return await fetch(request);
  } finally {
    accountChanges += 1;
  }
}

// Accounts signed out of in this worker's life: work begun for one before (a page kept 2 s after it
// was answered, a plan's run) keeps nothing after, and undoes what it wrote meanwhile. A sign-in
// to the same account takes it off.
const forgotten = new Set();

async function forget(who) {
  if (who === undefined) return;
  const name = who || "anonymous";
  forgotten.add(name);
  await caches.delete(pagesOf(who));
  for (const p of await idb("pages", "readonly", function (s) { return s.index("scope").getAll(name); })) {
    await idb("pages", "readwrite", function (s) { return s.delete(p.key); });
  }
  for (const entry of await idb("queue", "readonly", function (s) { return s.index("scope").getAll(name); })) {
    await idb("queue", "readwrite", function (s) { return s.delete(entry.id); });
  }
}

// ---------------------------------------------------------------- the plan: pages kept in the background

// One run at a time; a change during a run asks for one more after it.
let planned = null;
let plannedAt = 0;
let changedSince = false;
function refresh(changed) {
  if (planned) {
    changedSince = changedSince || changed;
    return planned;
  }
  // At most once a minute, unless something changed or the account is not known yet.
  if (!changed && scope !== undefined && Date.now() - plannedAt < 60000) return Promise.resolve();
  plannedAt = Date.now();
  planned = keepPlan(changed).finally(function () {
    planned = null;
    if (changedSince) {
      changedSince = false;
      return refresh(true);
    }
  });
  return planned;
}

async function keepPlan(changed) {
  let plan;
  const since = accountChanges;
  try {
    const response = await fetch("/offline/plan", { credentials: "same-origin", headers: { Accept: "application/json" } });
    if (!response.ok) return;
    plan = await response.json();
  } catch (error) {
    return;
  }
  // Asked before or during a sign-in or sign-out: it may name an account this browser has just left.
  if (since !== accountChanges) return;
  if ((await currentScope()) !== plan.scope) await setScope(plan.scope);
  if (!plan.scope) return;
  const cacheName = pagesOf(plan.scope);
  const cache = await caches.open(cacheName);
  const known = new Map((await idb("pages", "readonly", function (s) { return s.index("scope").getAll(plan.scope); }))
    .map(function (p) { return [p.url, p]; }));
  const wanted = plan.lists.map(function (path) { return [new URL(path, self.location.origin).href, true]; })
    .concat(plan.details.map(function (path) { return [new URL(path, self.location.origin).href, false]; }));
  for (const [url, isList] of wanted) {
    if (since !== accountChanges || forgotten.has(plan.scope)) return;
    const have = known.get(url);
    const fresh = have && (!isList || (!changed && Date.now() - Date.parse(have.savedAt) < LIST_FRESH));
    if (fresh && have.planned) continue;
    if (fresh) {
      have.planned = true;
      await idb("pages", "readwrite", function (s) { return s.put(have); });
      continue;
    }
    try {
      // Marked as kept in the background: nobody sees this page now, so it counts no offer shown.
      const response = await fetch(url, { credentials: "same-origin", headers: { "X-Offline-Keep": "1" } });
      if (response.status === 200) await keepPage(cacheName, plan.scope, url, response, true);
    } catch (error) {
      return;
    }
  }
  if (forgotten.has(plan.scope)) return forget(plan.scope);
  // A page the plan no longer has (a title removed, a list deleted) goes.
  const wantedURLs = new Set(wanted.map(function (pair) { return pair[0]; }));
  for (const p of known.values()) {
    if (p.planned && !wantedURLs.has(p.url)) {
      await cache.delete(p.url);
      await idb("pages", "readwrite", function (s) { return s.delete(p.key); });
    }
  }
}

// ---------------------------------------------------------------- changes made offline

// A library change: sent, and once saved the plan's pages follow it (a title saved now has its page
// kept at once). Without a connection, a change that carries an Idempotency-Key waits in the queue.
async function sendOrKeep(event) {
  const request = event.request;
  const copy = request.clone();
  try {
    const response = await fetch(request);
    if (response.ok || response.type === "opaqueredirect") event.waitUntil(refresh(true).catch(function () {}));
    return response;
  } catch (error) {
    const who = await currentScope();
    if (!who || !copy.headers.has("Idempotency-Key")) throw error;
    const headers = {};
    ["Content-Type", "Accept", "X-CSRF-Token", "Idempotency-Key"].forEach(function (name) {
      const value = copy.headers.get(name);
      if (value) headers[name] = value;
    });
    const madeAt = new Date().toISOString();
    headers["Change-Made-At"] = madeAt;
    const entry = {
      scope: who, url: copy.url, body: await copy.text(), headers: headers, madeAt: madeAt, state: "waiting",
      title: decodeURIComponent(copy.headers.get("X-Title") || ""), what: decodeURIComponent(copy.headers.get("X-Change") || ""),
    };
    await idb("queue", "readwrite", function (s) { return s.add(entry); });
    if (self.registration.sync) self.registration.sync.register("popcornswirl-sync").catch(function () {});
    await notify({ type: "queue" });
    return new Response(JSON.stringify({ queued: true }), { status: 202, headers: { "Content-Type": "application/json" } });
  }
}

let syncing = null;
function sync(token) {
  if (!syncing) syncing = replay(token).finally(function () { syncing = null; });
  return syncing;
}

// Sends the waiting changes in the order they were made. Returns false while still offline.
async function replay(token) {
  const who = await currentScope();
  if (!who) return true;
  const entries = (await idb("queue", "readonly", function (s) { return s.index("scope").getAll(who); }))
    .filter(function (e) { return e.state === "waiting"; })
    .sort(function (a, b) { return a.id - b.id; });
  let online = true;
  let changed = false;
  for (const entry of entries) {
    const headers = Object.assign({}, entry.headers);
    if (token) headers["X-CSRF-Token"] = token;
    let response;
    try {
      response = await fetch(entry.url, { method: "POST", headers: headers, body: entry.body, credentials: "same-origin", redirect: "manual" });
    } catch (error) {
      online = false;
      break;
    }
    if (response.ok || response.type === "opaqueredirect") {
      await idb("queue", "readwrite", function (s) { return s.delete(entry.id); });
      changed = true;
      continue;
    }
    // Worth trying again later: the server or its database, "too many", or a form token a page will renew.
    if (response.status >= 500 || response.status === 429 || response.status === 408 || (response.status === 403 && !token)) break;
    const problem = await response.json().catch(function () { return {}; });
    entry.state = "refused";
    entry.status = response.status;
    entry.detail = problem.detail || "The server refused this change.";
    await idb("queue", "readwrite", function (s) { return s.put(entry); });
    changed = true;
  }
  await notify({ type: "queue" });
  if (changed) await refresh(true);
  return online;
}

self.addEventListener("sync", function (event) {
  if (event.tag !== "popcornswirl-sync") return;
  event.waitUntil(sync(null).then(function (online) { if (!online) throw new Error("still offline"); }));
});

async function queue() {
  const who = await currentScope();
  if (!who) return [];
  return (await idb("queue", "readonly", function (s) { return s.index("scope").getAll(who); }))
    .sort(function (a, b) { return a.id - b.id; })
    .map(function (e) {
      return { id: e.id, url: new URL(e.url).pathname, title: e.title, what: e.what, madeAt: e.madeAt, state: e.state, detail: e.detail || "" };
    });
}

async function savedPages() {
  const who = await currentScope();
  if (who === undefined) return [];
  const cache = await caches.open(pagesOf(who));
  const pages = [];
  for (const p of await idb("pages", "readonly", function (s) { return s.index("scope").getAll(who || "anonymous"); })) {
    if (await cache.match(p.url)) pages.push({ url: new URL(p.url).pathname + new URL(p.url).search, title: p.title, savedAt: p.savedAt });
  }
  return pages.sort(function (a, b) { return a.title.localeCompare(b.title); });
}

// ---------------------------------------------------------------- pages talk to the worker

self.addEventListener("message", function (event) {
  const data = event.data || {};
  const port = event.ports && event.ports[0];
  const answer = function (value) { if (port) port.postMessage(value); };
  let work;
  if (data.type === "hello") {
    // A page loaded (or the connection returned): send what waits, answer with the queue, then
    // keep the plan's pages in the background.
    work = (data.online ? sync(data.token) : Promise.resolve()).then(queue);
    event.waitUntil(work.then(function () { return data.online ? timeout(KEEP_AFTER).then(function () { return refresh(false); }) : null; })
      .catch(function () {}));
  } else if (data.type === "changed") {
    event.waitUntil(refresh(true).catch(function () {}));
    return;
  } else if (data.type === "queue") {
    work = queue();
  } else if (data.type === "saved") {
    work = savedPages();
  } else if (data.type === "dismiss") {
    work = idb("queue", "readwrite", function (s) { return s.delete(data.id); }).then(queue);
  } else {
    return;
  }
  event.waitUntil(work.then(answer, function () { answer(null); }));
});
