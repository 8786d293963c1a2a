// Shows the Python runtime's download while it arrives: a progress bar of the bytes received
// (static/js/pyodide-snapshot.mjs reports them, "skillcheck:download"), then that Python is
// starting. The roll button says what it waits for until the glue enables it. The build writes
// the files' sizes onto the bar (data-runtime-bytes, data-snapshot-bytes); a visit served by the
// service worker downloads nothing, and the bar stays hidden.

const box = document.getElementById("boot");
const bar = document.getElementById("boot-bar");
const status = document.getElementById("boot-status");
const amount = document.getElementById("boot-amount");
const roll = document.getElementById("roll");
const root = document.documentElement;
let phase = "";

const ready = () => root.dataset.ready === "true";
const megabytes = (bytes) => (bytes / 1e6).toFixed(1);

// Phase changes only: the status is a live region, the amount beside it is not.
function show(text, button) {
  if (phase === text) return;
  phase = text;
  status.querySelector("label").textContent = text;
  roll.textContent = button;
}

document.addEventListener("skillcheck:download", ({ detail }) => {
  const total = Number(bar.dataset.runtimeBytes || 0)
    + (detail.snapshot ? Number(bar.dataset.snapshotBytes || 0) : 0);
  if (ready() || !total) return;
  box.hidden = false;
  bar.max = total;
  bar.value = Math.min(detail.received, total);
  amount.textContent = `${megabytes(bar.value)} of ${megabytes(total)} MB`;
  if (detail.received >= total) show("Starting Python…", "Waiting for Python to start…");
  else show("Downloading Python…", "Waiting for Python to download…");
});

const watch = new MutationObserver(() => {
  if (!ready()) return;
  watch.disconnect();
  bar.value = bar.max;
  box.hidden = true;
});
watch.observe(root, { attributes: true, attributeFilter: ["data-ready"] });
