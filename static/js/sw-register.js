// Makes Skill Check work offline (registers ./sw.js) and offers a new deployment when one is ready.
//
// The page includes, with relative URLs so that any sub-path works:
//   <script type="module" src="static/js/sw-register.js"></script>
//   <div id="update-banner" aria-live="polite" hidden>
//     A new version is ready. <button type="button" id="update-reload">Reload</button>
//   </div>
// The banner stays hidden until a new build has been fully downloaded; the button switches to it
// and reloads. Until then the page keeps running the build it started with, never a mix.

const banner = document.getElementById("update-banner");
const button = document.getElementById("update-reload");

async function register() {
  const registration = await navigator.serviceWorker.register("./sw.js");
  if (!registration) return; // registration blocked (test harnesses do)
  // Reload when a new worker takes over a page that an older one was serving. The very first
  // install also takes over its page, but that page already runs the same build: no reload.
  let served = Boolean(navigator.serviceWorker.controller);
  navigator.serviceWorker.addEventListener("controllerchange", () => {
    if (served) window.location.reload();
    served = true;
  });
  if (registration.waiting && navigator.serviceWorker.controller) offer(registration.waiting);
  registration.addEventListener("updatefound", () => {
    const worker = registration.installing;
    worker?.addEventListener("statechange", () => {
      if (worker.state === "installed" && navigator.serviceWorker.controller) offer(worker);
    });
  });
  // A phone keeps the tab open for weeks: look for a new deployment whenever it comes back.
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible") registration.update().catch(() => {});
  });
}

function offer(worker) {
  if (!banner || !button) return;
  banner.hidden = false;
  button.disabled = false;
  button.onclick = () => {
    button.disabled = true;
    worker.postMessage({ type: "SKIP_WAITING" });
  };
}

// Python first: the worker's precache (the whole build, fetched and hashed) made a first visit's
// boot about a fifth slower when it ran alongside (docs/performance.md).
function pythonReady() {
  const root = document.documentElement;
  return new Promise((resolve) => {
    const check = () => root.dataset.ready === "true" && (watch.disconnect(), resolve());
    const watch = new MutationObserver(check);
    watch.observe(root, { attributes: true, attributeFilter: ["data-ready"] });
    check();
  });
}

if ("serviceWorker" in navigator) {
  pythonReady()
    .then(register)
    .catch((error) => console.warn("Skill Check works online only here:", error));
}
