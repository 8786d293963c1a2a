"""The page's DOM through pyscript.web: which form is shown, what its controls hold, errors beside
their fields, and the form's small conveniences. Generic: it reads controls by their type and
data attributes, never by which rule system they belong to.

Data attributes index.html uses:
  data-kind="list|flag"   read a text box as a list of draws, a select as yes/no (else the type)
  data-fills="NAME"       a select whose chosen option's data-value is written into control NAME
  data-off-when="A B"     disabled (so left out of the request) while control A or B is set
  data-on-when="A"        disabled and its field hidden unless control A is set
  data-skill-picker       a skill select; it fills the data-specializations selects, the
                          .aspect-hint and the Advanced boxes of its [data-skill-scope]
  data-repeat="GROUP"     a list of [data-repeat-item] blocks named GROUP.N.field, at most
                          data-max, added from <template id="GROUP-template">
  data-rules-max          set by set_cap: the max the rules allow, while a character's stock
                          lowers the box's own max
  data-saves-room         a <details> ("More") whose controls count closed too; its
                          .more-said says what is set in them (say_folded)
"""

from __future__ import annotations

import re
from html import escape

from pyscript import document, web, window
from pyscript.ffi import is_none, to_js

from . import check_words, forms, systems
from .adjust_html import Knob
from .result_html import sentence_case, side_title

_BUBBLES = to_js({"bubbles": True})
LATER = "template.sysform-later"  # a check form not shown yet (see active_form)


def checked(name: str) -> str | None:
    """The value of the checked radio button called `name`."""
    found = web.page.find(f'input[type="radio"][name="{name}"]:checked')
    return found[0].value if len(found) else None


def chosen() -> tuple[str, str | None]:
    """(system, mode) the pickers show; mode only for a system whose forms have modes (a form
    not shown yet is still its template, which names them too)."""
    system = checked("system") or systems.FIRST
    has_modes = len(web.page.find(
        f':is(.sysform, {LATER})[data-system="{system}"][data-mode]'))
    return system, (checked("mode") if has_modes else None)


def _radio(name: str, value: object):
    """The radio button `name` whose value is `value`, or None. The value comes from a link, so
    it is compared with each button's, never put into a selector."""
    return next((radio for radio in web.page.find(f'input[type="radio"][name="{name}"]')
                 if radio.value == value), None)


def tick(name: str, value: object) -> bool:
    """Tick radio button `name` whose value is `value`; False if there is none."""
    radio = _radio(name, value) if value else None
    if radio is not None:
        radio.checked = True
    return radio is not None


def choose(system: object, mode: object) -> bool:
    """Tick the pickers for a system (and mode); False if the page has no such form."""
    if not tick("system", system):
        return False
    tick("mode", mode)
    return True


def active_form():
    """The shown check form. index.html ships each form as a <template> (parsed, never laid
    out: the page starts sooner); the first time one is shown it is made live where its
    template stood, as static/js/early-form.js does for a choice made before Python loads."""
    system, mode = chosen()
    selector = f'[data-system="{system}"]' + (f'[data-mode="{mode}"]' if mode else "")
    found = web.page.find(".sysform" + selector)
    if len(found):
        return found[0]
    later = web.page.find(LATER + selector)[0]._dom_element
    later.replaceWith(later.content.cloneNode(True))
    return web.page.find(".sysform" + selector)[0]


def controls(form, closed_too: bool = False) -> list[tuple[str, str, object]]:
    """(name, kind, raw) of each control the request is built from: named, enabled, and not
    tucked in a closed disclosure (unless `closed_too`), but for one that only saves room
    (data-saves-room: a side's "More")."""
    found = []
    for control in form.find("[name]"):
        if control.disabled or not closed_too and not is_none(
                control.closest("details:not([open]):not([data-saves-room])")):
            continue
        kind = control.getAttribute("data-kind") or control.type
        found.append((control.name, kind, control.checked if kind == "checkbox" else
                      control.value))
    return found


def _control(form, field: str):
    found = form.find(f'[name="{field}"]')
    return found[0] if len(found) else None


def label_of(form, field: str) -> str:
    """The words of the label of control `field`, or the field's own name."""
    control = _control(form, field)
    if control is None:
        return field
    label = document.querySelector(f'label[for="{control.id}"]')
    text = label.firstChild.textContent if not is_none(label) else ""
    return text.strip() or field


def say_folded(form) -> None:
    """Each "More" of `form` says what is set in it ("· flip +1, takes a 7"), so that nothing
    set there is hidden when it is closed; its own words while nothing is."""
    system, _ = chosen()
    for more in form.find("details[data-saves-room]"):
        said = more.find(".more-said")[0]
        if not said.hasAttribute("data-unset"):
            said.setAttribute("data-unset", said.textContent)
        values = forms.tree_from((name.rsplit(".", 1)[-1], kind, raw)
                                 for name, kind, raw in controls(more))
        words = check_words.set_in(system, values)
        said.textContent = f"· {words}" if words else said.getAttribute("data-unset")
        more.classList.toggle("set", bool(words))


def clear_errors(form) -> None:
    for control in form.find('[aria-invalid="true"]'):
        control.removeAttribute("aria-invalid")
        _describe(control, [f"{control.id}-error"], [])
    for message in form.find(".field-error"):
        message._dom_element.remove()


def _describe(control, drop: list[str], add: list[str]) -> None:
    """Change which elements describe `control` (its hint stays; an error message comes first)."""
    ids = [i for i in (control.getAttribute("aria-describedby") or "").split() if i not in drop]
    if ids or add:
        control.setAttribute("aria-describedby", " ".join([*add, *ids]))
    else:
        control.removeAttribute("aria-describedby")


def show_error(form, field: str, reason: str) -> bool:
    """Put the engine's reason beside the control it names; False when no control matches."""
    control = _control(form, field)
    if control is None:
        return False
    disclosure = control.closest("details")
    while not is_none(disclosure):  # "Enter my own cards" and the "More" it is in
        disclosure.open = True
        disclosure = disclosure.parentElement.closest("details")
    message_id = f"{control.id}-error"
    message = web.p(id=message_id, classes=["field-error"])
    message.textContent = sentence_case(reason)
    control.closest(".field").appendChild(message._dom_element)
    control.setAttribute("aria-invalid", "true")
    _describe(control, [message_id], [message_id])
    return True


def sync(form) -> None:
    """Carry out the form's data-fills and data-off-when links."""
    for select in form.find("select[data-fills]"):
        target = _control(form, select.getAttribute("data-fills"))
        chosen = select.find("option:checked")
        value = chosen[0].getAttribute("data-value") if len(chosen) else None
        if target is not None and value:
            target.value = value
    for control in form.find("[data-off-when]"):
        names = control.getAttribute("data-off-when").split()
        control.disabled = any(_is_set(form, name) for name in names)
    for control in form.find("[data-on-when]"):
        control.disabled = not _is_set(form, control.getAttribute("data-on-when"))
        control.closest(".field").hidden = control.disabled


def _is_set(form, name: str) -> bool:
    control = _control(form, name)
    if control is None or control.disabled:
        return False
    return bool(control.checked if control.type == "checkbox" else control.value)


def replace_keeping_open(element, html: str, key: str) -> None:
    """Put `html` in `element`, and open again each <details> whose parent has the same `key`
    attribute as one open before. The odds are worked out anew when a box loses focus: on a phone
    that is the very tap that opens an odds row to read it, which would otherwise shut again."""
    node = element._dom_element
    opened = {row.parentElement.getAttribute(key)
              for row in node.querySelectorAll(f"[{key}] > details[open]")}
    node.innerHTML = html
    if opened:
        for row in node.querySelectorAll(f"[{key}] > details"):
            row.open = row.parentElement.getAttribute(key) in opened


def skill_options(skills: list[dict]) -> str:
    """<option>s of the rulebook's skills: "Athletics · HS", "Knowledge · AI · Advanced"."""
    return "".join(
        f'<option value="{escape(s["name"])}">{escape(s["name"])} · {escape(s["aspect"])}'
        f'{" · Advanced" if s.get("type") == "Advanced" else ""}</option>' for s in skills)


def fill_skills(form, skills: list[dict]) -> None:
    """Offer the rulebook's skill list in each skill picker of `form` (once, when first shown)."""
    options = skill_options(skills)
    for select in form.find("select[data-skill-picker]"):
        select._dom_element.insertAdjacentHTML("beforeend", options)


def set_values(form, values: dict[str, object]) -> None:
    """Put values into the form's controls by name: ticks take True/False, a yes/no select
    (data-kind="flag") is set to its "no" for False, to the option a text names, and to its
    first "yes" for True unless one is chosen; anything else takes the value as text."""
    for name, value in values.items():
        control = _control(form, name)
        if control is None:
            continue
        if control.type == "checkbox":
            control.checked = bool(value)
        elif control.getAttribute("data-kind") == "flag":
            if not value:
                control.value = ""
            elif isinstance(value, str) and any(o.value == value for o in control.find("option")):
                control.value = value
            elif not control.value and len(control.find("option:not([value=''])")):
                control.value = control.find("option:not([value=''])")[0].value
        else:
            control.value = "" if value is None else str(value)
    for select in form.find("select[data-fills]"):  # a number typed in, not a named choice
        if select.name not in values and select.getAttribute("data-fills") in values:
            select.value = ""


def reset_form(form) -> None:
    """One check form back as the page first drew it, one item in each repeated group."""
    for control in form.find("[name]"):
        element = control._dom_element
        if element.type == "checkbox":
            element.checked = element.defaultChecked
        elif element.tagName == "SELECT":
            element.selectedIndex = _first_index(element)
        else:
            element.value = element.defaultValue
    for box in form.find("[data-repeat]"):
        reset_repeat(box.getAttribute("data-repeat"))


def field_label(form, field: str) -> str:
    """What the page calls control `field`, with its side: "Rank", "Helper 2 · Rank" (named
    as the first helper's box when the form shows fewer helpers)."""
    first = re.sub(r"\.[0-9]+\.", ".0.", field, count=1)
    label = label_of(form, field if _control(form, field) is not None else first)
    return f"{side_title(field)} · {label}" if "." in field else label


def form_values(form) -> dict[str, object]:
    """Every named control of `form` as the player left it — text, or a tick — to keep across
    reloads. Cards or dice typed in are left out: they are one roll's, not the form's."""
    return {control.name: control.checked if control.type == "checkbox" else control.value
            for control in form.find("[name]")
            if (control.getAttribute("data-kind") or control.type) != forms.LIST}


def restore(form, values: dict[str, object], skills: dict[str, dict]) -> None:
    """Put kept values back (names already checked, see form_memory.FIELD), as many repeated
    items as they name first; a control the player changed while Python was loading keeps
    what they typed. A value a control cannot take leaves it empty, for the rules to name."""
    fit_repeats(form, values)
    controls = [(control, value) for control, value in (
        (_control(form, name), value) for name, value in values.items())
        if control is not None and _untouched(control._dom_element)]
    for _ in range(2):  # again once the skill pickers have offered their specializations
        for control, value in controls:
            if control.type == "checkbox":
                control.checked = bool(value)
            else:
                control.value = str(value)
        for picker in form.find("[data-skill-picker]"):
            apply_skill(picker._dom_element, skills)


def _untouched(control) -> bool:
    """Whether a control still holds what the page started with."""
    if control.type == "checkbox":
        return control.checked == control.defaultChecked
    if control.tagName == "SELECT":
        return control.selectedIndex == _first_index(control)
    return control.value == control.defaultValue


def _first_index(select) -> int:
    """The option a select starts on: the one marked selected, else the first."""
    return next((i for i, option in enumerate(select.options) if option.defaultSelected), 0)


def fit_repeats(form, values: dict[str, object]) -> None:
    """As many items in each repeated group of `form` as `values` name (secondaries.2.rank:
    three helpers), within the group's data-max."""
    for box in form.find("[data-repeat]"):
        group = box.getAttribute("data-repeat")
        indexes = [int(name.split(".")[1]) for name in values
                   if name.startswith(f"{group}.") and name.split(".")[1].isdigit()]
        if not indexes:
            continue
        wanted = min(max(indexes) + 1, int(box.getAttribute("data-max")))
        while len(box.find("[data-repeat-item]")) > wanted:
            box.find("[data-repeat-item]")[-1]._dom_element.remove()
        while len(box.find("[data-repeat-item]")) < wanted:
            repeat_add(group)
        renumber(group)


def set_cap(form, field: str, most: int | None, note: str | None) -> None:
    """Lower a number box's max to `most` (None: back to the rules' own) with a note beside it."""
    control = _control(form, field)
    if control is None:
        return
    if not control.hasAttribute("data-rules-max"):
        control.setAttribute("data-rules-max", control.max)
    rules = control.getAttribute("data-rules-max")
    control.max = rules if most is None else str(min(most, int(rules)))
    if most is not None and forms.WHOLE.fullmatch(control.value) and int(control.value) > most:
        control.value = str(max(most, 0))  # what is left, not a refusal at the next roll
        control._dom_element.dispatchEvent(window.Event.new("input", _BUBBLES))
    set_note(form, field, note)


def set_note(form, field: str, text: str | None, choice: tuple[str, str] | None = None) -> None:
    """A standing note beside a control (what a character can spend), or none; see `note`."""
    control = _control(form, field)
    if control is None:
        return
    note_id = f"{control.id}-note"
    old = document.getElementById(note_id)
    if not is_none(old):
        old.remove()
    _describe(control, [note_id], [note_id] if text else [])
    if text:
        control.closest(".field").appendChild(note(note_id, text, choice))


def note(note_id: str, text: str, choice: tuple[str, str] | None = None):
    """A note's <p class="field-note">; with `choice` (its words, its value), a button in it
    that carries the value as data-choice."""
    element = document.createElement("p")
    element.id = note_id
    element.className = "field-note"
    element.textContent = text
    if choice:
        button = document.createElement("button")
        button.type = "button"
        button.className = "tool"
        button.textContent = choice[0]
        button.dataset.choice = choice[1]
        element.append(" ", button)
    return element


def apply_skill(select, skills: dict[str, dict]) -> None:
    """A chosen skill names its aspect, ticks Advanced, and offers its specializations."""
    scope = select.closest("[data-skill-scope]")
    skill = skills.get(select.value)
    for hint in scope.querySelectorAll(".aspect-hint"):
        hint.textContent = f"({skill['aspect']})" if skill else ""
        hint.title = (skill.get("aspect_name") or "") if skill else ""
    for box in scope.querySelectorAll('input[type="checkbox"][name$="advanced"]'):
        box.checked = bool(skill) and skill.get("type") == "Advanced"
    names = list(skill.get("specializations", [])) if skill else []
    for spec in scope.querySelectorAll("select[data-specializations]"):
        was = spec.value
        choices = [(name, name) for name in names] + (
            [("other", "Another, agreed with the GM")] if names else
            [("yes", "Yes, one applies (flip+1)")])
        spec.innerHTML = '<option value="">None</option>' + "".join(
            f'<option value="{escape(value)}">{escape(text)}</option>' for value, text in choices)
        spec.value = was if any(value == was for value, _ in choices) else ""
        _place_specialization(spec, bool(names))


def _place_specialization(spec, listed: bool) -> None:
    """In a folded side with its own skill list, the `listed` specializations of the skill
    chosen stand beside its aspect; with none, the yes/no goes back under "More"."""
    side = spec.closest("fieldset")
    if (is_none(side) or is_none(side.querySelector("details[data-saves-room]"))
            or is_none(side.querySelector("[data-skill-picker]"))):
        return
    anchor = side.querySelector('[name$=".aspect"]' if listed else '[name$=".shift"]')
    anchor.closest(".field").after(spec.closest(".field"))


def repeat_button(button, added) -> bool:
    """Carry out a repeated group's add (data-add-item) or remove (data-remove-item) button;
    after an add, `added(item)` with the group's last item. False for any other button."""
    if button.hasAttribute("data-add-item"):
        group = button.getAttribute("data-add-item")
        repeat_add(group)
        items = web.page.find(f'[data-repeat="{group}"] [data-repeat-item]')
        added(items[len(items) - 1])
    elif button.hasAttribute("data-remove-item"):
        repeat_remove(button)
    else:
        return False
    return True


def repeat_add(group: str) -> None:
    box = web.page.find(f'[data-repeat="{group}"]')[0]
    if len(box.find("[data-repeat-item]")) >= int(box.getAttribute("data-max")):
        return
    template = document.getElementById(f"{group}-template")
    box._dom_element.appendChild(template.content.cloneNode(True))
    renumber(group)


def reset_repeat(group: str) -> None:
    """Back to the number of items the page starts with (data-start)."""
    box = web.page.find(f'[data-repeat="{group}"]')[0]
    for item in box.find("[data-repeat-item]"):
        item._dom_element.remove()
    for _ in range(int(box.getAttribute("data-start") or 0)):
        repeat_add(group)
    renumber(group)


def repeat_remove(button) -> None:
    item = button.closest("[data-repeat-item]")
    group = item.getAttribute("data-repeat-item")
    item.remove()
    renumber(group)


def renumber(group: str) -> None:
    """Names, ids and labels of a repeated group follow the items' order: GROUP.0, GROUP.1 …"""
    box = web.page.find(f'[data-repeat="{group}"]')[0]
    items = box.find("[data-repeat-item]")
    for i, item in enumerate(items):
        for control in item.find("[name]"):
            control.name = forms.renumbered(control.name, group, i)
        for tagged in item.find("[id]"):
            tagged.id = forms.renumbered(tagged.id, group, i, "-")
        for label in item.find("label[for]"):
            label.htmlFor = forms.renumbered(label.htmlFor, group, i, "-")
        for described in item.find("[aria-describedby]"):
            described.setAttribute("aria-describedby", " ".join(
                forms.renumbered(ref, group, i, "-")
                for ref in described.getAttribute("aria-describedby").split()))
        for number in item.find(".repeat-number"):
            number.textContent = str(i + 1)
    adder = web.page.find(f'[data-add-item="{group}"]')
    if len(adder):
        adder[0].disabled = len(items) >= int(box.getAttribute("data-max"))


def reduced_motion() -> bool:
    return bool(window.matchMedia("(prefers-reduced-motion: reduce)").matches)


# ---- the knobs under a result: steps of the form's own boxes -------------------------------------

def knob(form, field: str):
    """Control `field` of `form` as the row under a result shows it (adjust_html.Knob), or None
    when the form has no such box."""
    control = _control(form, field)
    if control is None:
        return None
    label = field_label(form, field)
    if control.disabled:
        return Knob(field, label, control.value or "—", False, False)
    if control.tagName == "SELECT":
        element, index = control._dom_element, control._dom_element.selectedIndex
        words = element.options.item(index).text if index >= 0 else "—"
        return Knob(field, label, words, index > 0, 0 <= index < element.options.length - 1)
    try:
        value = int(control.value)
    except ValueError:
        return Knob(field, label, control.value or "—", False, False)
    low, high = control.getAttribute("min"), control.getAttribute("max")
    return Knob(field, label, str(value), low is None or value > int(low),
                high is None or value < int(high))


def step(form, field: str, by: int) -> None:
    """One step of control `field`, then the input and change events typing sends, so the odds,
    the kept form and the rest hear of it as of a player's own change."""
    control = _control(form, field)
    if control is None or control.disabled:
        return
    element = control._dom_element
    if control.tagName == "SELECT":
        element.selectedIndex = max(0, min(element.options.length - 1,
                                           element.selectedIndex + by))
    elif by > 0:
        element.stepUp()
    else:
        element.stepDown()
    for kind in ("input", "change"):
        element.dispatchEvent(window.Event.new(kind, _BUBBLES))
