// The check form before Python has loaded. index.html ships every system's and mode's form as a
// <template> (parsed, but never styled or laid out, which makes each visit start sooner) and runs
// this right after them, so the first paint already shows the form the page will keep, made
// live: the one a #system=…&mode=… link names, else the one shown last (py/app/form_memory.py,
// `opening`, makes the same choice once Python runs; a replay link is Python's to open). A form
// the pickers choose later is made live the moment they change (py/app/dom.py, `active_form`,
// does the same for a choice Python makes). Also the +/− steppers, which work from the first
// paint: one step, then the same input and change events typing sends, so Python hears of it
// once it is there.

(() => {
  const radio = (name, value) =>
    [...document.querySelectorAll(`input[type="radio"][name="${name}"]`)]
      .find((input) => input.value === value);

  function stored() {
    try {
      const kept = JSON.parse(localStorage.getItem("skillcheck.forms"));
      return kept && typeof kept === "object" ? kept : {};
    } catch {
      return {}; // nothing stored, unreadable or refused: the page's first form
    }
  }

  function opening(kept) {
    const fragment = location.hash.replace(/^#/, "");
    if (fragment.startsWith("r=")) return null;
    const pairs = new URLSearchParams(fragment);
    const last = (key) => pairs.getAll(key).filter(Boolean).pop() ?? null;
    const system = last("system");
    if (system !== null) return { system, mode: last("mode") };
    const shown = kept.shown;
    return shown && typeof shown === "object" ? shown : null;
  }

  const tick = (name, value) => {
    const found = typeof value === "string" && radio(name, value);
    if (found) found.checked = true;
    return Boolean(found);
  };

  // The first radio button called `name`, ticked: the page's first system, its first mode.
  const first = (name) => {
    const found = document.querySelector(`input[type="radio"][name="${name}"]`);
    if (found) found.checked = true;
    return Boolean(found);
  };

  const checked = (name) => document.querySelector(`input[type="radio"][name="${name}"]:checked`);

  // The chosen form out of its template, into the page where the template stood; once only.
  function live() {
    const system = checked("system")?.value;
    const mode = checked("mode")?.value;
    for (const later of document.querySelectorAll("template.sysform-later")) {
      const { system: its, mode: itsMode } = later.dataset;
      if (its === system && (itsMode === undefined || itsMode === mode)) {
        later.replaceWith(later.content.cloneNode(true));
      }
    }
  }

  const kept = stored();
  for (const mode of Object.values(kept.modes && typeof kept.modes === "object" ? kept.modes : {})) {
    tick("mode", mode);
  }
  const wanted = opening(kept);
  if (wanted && tick("system", wanted.system)) tick("mode", wanted.mode);
  else if (wanted) first("system") && first("mode"); // the page's first form, as it ships
  live();
  // Capturing: before the glue's own change handler, which reads the form made live here.
  document.addEventListener("change", (event) => {
    if (event.target.name === "system" || event.target.name === "mode") live();
  }, true);

  document.addEventListener("click", (event) => {
    const button = event.target.closest("button[data-step]");
    const box = button && button.parentElement.querySelector("input");
    if (!box || box.disabled) return;
    if (Number(button.dataset.step) > 0) box.stepUp();
    else box.stepDown();
    box.dispatchEvent(new Event("input", { bubbles: true }));
    box.dispatchEvent(new Event("change", { bubbles: true }));
  });
})();
