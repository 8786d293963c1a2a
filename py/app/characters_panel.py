"""Saved characters on the page: the bar over the form (who is rolling, what they pick, their
Luck and XP, undo of the last spend) and the editor dialog (name, notes, stocks, sheets).

Names and notes are player text: they reach the page as text or escaped, never as markup.
"""

from __future__ import annotations

from collections.abc import Callable
from html import escape

import skillcheck
from pyscript import document, web, when
from pyscript.ffi import is_none

from . import browser, character_form, dom, forms, log_panel
from .browser import guarded
from .characters import (
    RESOURCES,
    CharactersFileError,
    Roster,
    SpendError,
    counted,
    edited,
    fill,
    import_question,
    import_summary,
    limits,
    read_file,
    spend_problem,
)
from .storage import FieldError, Storage

PICKED_KEY = "skillcheck.picked"
GROUPS = tuple(character_form.GROUPS)
# filled: (system, the sheet's name, {control: value}) of the last pick put into the form
state: dict = {"roster": None, "storage": None, "picked": None, "editing": None,
               "fill": None, "filled": None}


def roster() -> Roster:
    return state["roster"]


def start(storage: Storage, fill_form: Callable[[str | None, dict], None]) -> None:
    """Load the characters; `fill_form(mode, values)` puts a pick into the check form."""
    state.update(roster=Roster(storage), storage=storage, fill=fill_form)
    try:
        picked = int(storage.get(PICKED_KEY) or 0)
    except Exception:  # unreadable storage, or not a number: nobody is picked
        picked = 0
    state["picked"] = picked if roster().get(picked) else None
    skills = skillcheck.SYSTEMS.get("flip", {}).get("skills", [])
    template = document.getElementById("flip_skills-template").content
    template.querySelector("select").insertAdjacentHTML("beforeend", dom.skill_options(skills))
    for control in ("who-character", "who-new", "who-import"):
        web.page[control].disabled = False
    say(" ".join(roster().warnings))
    render()


def refresh() -> None:
    """Another tab changed the characters: take them in and redraw the bar."""
    if roster().refresh():
        if not picked():
            _pick(None)
        render()


def picked() -> dict | None:
    return roster().get(state["picked"]) if state["picked"] else None


def say(message: str, problem: bool = False) -> None:
    status = web.page["who-status"]
    status.textContent = message
    status._dom_element.classList.toggle("problem", problem)


def who(request: dict) -> dict | None:
    """Whom a check of `request` is rolled for: the picked character's name, and the sheet's
    skill while the form still holds every value that pick filled in; None with nobody picked."""
    character = picked()
    if character is None:
        return None
    filled = state["filled"]
    if filled and filled[0] == request.get("system") and all(
            forms.value_at(request, field) == value for field, value in filled[2].items()):
        return {"name": character["name"], "skill": filled[1]}
    return {"name": character["name"]}


def _pick(character_id: int | None) -> None:
    state["picked"] = character_id
    state["filled"] = None
    try:
        if character_id:
            state["storage"].set(PICKED_KEY, str(character_id))
        else:
            state["storage"].remove(PICKED_KEY)
    except Exception:  # which character is picked is a convenience: never worth a warning
        pass


# ---- the bar over the form -----------------------------------------------------------------------

def render() -> None:
    """The bar for the picked character and the shown system; caps on the shown form."""
    character = picked()
    web.page["who-character"].innerHTML = '<option value="">No character</option>' + "".join(
        f'<option value="{c["id"]}">{escape(c["name"])}</option>' for c in roster().all())
    web.page["who-character"].value = str(character["id"]) if character else ""
    system, _ = dom.shown()
    choices = character_form.pick_options(character, system) if character else []
    web.page["who-pick"].innerHTML = '<option value="">Choose what to roll…</option>' + "".join(
        f'<option value="{escape(value)}">{escape(label)}</option>' for value, label in choices)
    web.page["who-pick-field"].hidden = not choices
    web.page["who-stock"].textContent = (
        f"Luck {character['luck']:,} · XP {character['xp']:,}" if character else "")
    web.page["who-edit"].hidden = character is None
    web.page["who-export"].disabled = not roster().all()
    last = character and character["last_spend"]
    undo = web.page["who-undo"]
    undo.hidden = not last
    if last:
        resource = RESOURCES[last["system"]]
        undo.textContent = f"Undo last spend ({last['amount']:,} {resource.label})"
    caps()


def caps() -> None:
    """The shown form's Luck or Insurance box stops at what the picked character has."""
    system, _ = dom.shown()
    resource = RESOURCES.get(system)
    if resource is None:
        return
    character = picked()
    most = limits(character, system).get(resource.field) if character else None
    note = None
    if character:
        each = f", {resource.cost} {resource.label} each" if resource.cost > 1 else ""
        note = (f"{character['name']} has {character[resource.stock]:,} {resource.label}: "
                f"at most {most}{each}.")
    dom.set_cap(dom.active_form(), resource.field, most, note)


def _less(record: dict, field: str, already: int) -> dict:
    """`record` with `already` (what the check shown took before it was re-judged) off `field`."""
    return {**record, field: record[field] - already} if already else record


def check_spend(request: dict, already: int = 0) -> None:
    """Before rolling: FieldError beside the Luck or Insurance box when the picked character
    cannot offer what the request offers, beyond the `already` it took for the same dice."""
    character = picked()
    resource = RESOURCES.get(request.get("system"))
    if resource and already:
        request = _less(request, resource.field, already)
    problem = character and spend_problem(character, request)
    if problem:
        raise FieldError(RESOURCES[request["system"]].field, problem)


def spend(result: dict, already: int = 0) -> tuple[dict | None, str | None]:
    """Take what `result` spent from the picked character, less the `already` taken for the same
    dice before they were judged again: (spend record or None, a problem to show or None)."""
    if picked() is None:
        return None, None
    resource = RESOURCES.get(result.get("system"))
    if resource and already:
        result = _less(result, resource.spent, min(already, result[resource.spent]))
    try:  # against the stock stored now: another tab may have spent meanwhile
        _, record, warnings = roster().spend(state["picked"], result)
    except SpendError as error:
        render()
        return None, str(error)
    if record is not None:
        say(" ".join([record["text"], *warnings]))
        render()
    return record, None


@when("change", "#who-character")
@guarded
def on_character(event) -> None:
    value = event.target.value
    _pick(int(value) if value else None)
    say("")
    render()


@when("change", "#who-pick")
@guarded
def on_pick(event) -> None:
    character, name = picked(), event.target.value
    if character is None or not name:
        return
    system, mode = dom.shown()
    mode, values = character_form.form_values(system, mode, name, fill(character, system, name))
    state["filled"] = (system, name, values)
    state["fill"](mode, values)
    web.page["who-pick"].value = ""  # the same pick can fill the form again after edits
    say(f"{character['name']}: {name} is in the form. The GM sets the difficulty and "
        "modifiers.")


@when("click", "#who-undo")
@guarded
def on_undo(event) -> None:
    if picked() is None:
        return
    try:  # the last spend as stored now: an undo in another tab has already given it back
        _, undo, warnings = roster().undo(state["picked"])
    except SpendError as error:
        say(str(error))
        render()
        return
    say(" ".join([undo["text"], *warnings]))
    log_panel.record_undo(undo)
    render()


# ---- moving characters to another browser: export, import --------------------------------------

@when("click", "#who-export")
@guarded
def on_export(event) -> None:
    count = len(roster().all())
    browser.download(roster().export_name(), roster().export_json())
    say(f"Exported {counted(count)} as {roster().export_name()}.")


@when("change", "#who-import")
@guarded
async def on_import(event) -> None:
    text = await browser.chosen_text(event)
    if text is None:
        return
    try:
        characters = read_file(text)
        replaced = roster().replaced_by(characters)
    except CharactersFileError as error:
        say(str(error), problem=True)
        return

    def merge() -> None:
        added, replacing, warnings = roster().merge(characters)
        say(" ".join([import_summary(added, replacing), *warnings]), problem=bool(warnings))
        render()

    if replaced:
        browser.ask(import_question(len(characters), replaced), "Import and replace", merge)
    else:
        merge()


# ---- the editor ----------------------------------------------------------------------------------

def _editor():
    return web.page["character-form"]


def open_editor(character: dict | None) -> None:
    state["editing"] = character["id"] if character else None
    form = _editor()
    dom.clear_errors(form)
    web.page["editor-error"].textContent = ""
    web.page["editor-title"].textContent = (f"Edit {character['name']}" if character
                                            else "New character")
    rows, values = character_form.editor_values(character)
    for group in GROUPS:
        dom.reset_repeat(group)
        for _ in range(rows[group]):
            dom.repeat_add(group)
    dom.set_values(form, values)
    for details in form.find("details"):
        details.open = False
    web.page["editor-delete"].hidden = character is None
    web.page["character-editor"]._dom_element.showModal()
    web.page["ce-name"]._dom_element.focus()


def close_editor() -> None:
    web.page["character-editor"]._dom_element.close()


def save() -> None:
    form = _editor()
    dom.clear_errors(form)
    web.page["editor-error"].textContent = ""
    where: dict[str, str] = {}
    try:
        fields, where = character_form.character_fields(
            forms.tree_from(dom.controls(form, closed_too=True)))
        if state["editing"]:
            character = edited(roster().get(state["editing"]), **fields)
            warnings = roster().update(character)
        else:
            character, warnings = roster().create(fields.pop("name"), **fields)
    except FieldError as error:
        control = character_form.control_for(error.field, where) or error.field
        shown = dom.show_error(form, control, error.reason)
        label = dom.label_of(form, control) if shown else error.field
        web.page["editor-error"].textContent = f"{label}: {error.reason}"
        return
    close_editor()
    _pick(character["id"])
    say(" ".join([f"Saved {character['name']}.", *warnings]))
    render()


@when("click", "#who-new")
@guarded
def on_new(event) -> None:
    open_editor(None)


@when("click", "#who-edit")
@guarded
def on_edit(event) -> None:
    open_editor(picked())


@when("submit", "#character-form")
@guarded
def on_save(event) -> None:
    event.preventDefault()
    save()


@when("click", "#character-form")
@guarded
def on_editor_button(event) -> None:
    button = event.target.closest("button")
    if is_none(button):
        return
    if button.hasAttribute("data-add-item"):
        group = button.getAttribute("data-add-item")
        dom.repeat_add(group)
        rows = web.page.find(f'[data-repeat="{group}"] [data-repeat-item]')
        rows[len(rows) - 1].find("input, select")[0]._dom_element.focus()
    elif button.hasAttribute("data-remove-item"):
        dom.repeat_remove(button)
    elif button.id == "editor-cancel":
        close_editor()
    elif button.id == "editor-delete":
        character = roster().get(state["editing"])
        browser.ask(f"Delete {character['name']}? Their sheet, Luck and XP are forgotten; the "
                    "log keeps what they spent.", "Delete", lambda: delete(character))


def delete(character: dict) -> None:
    warnings = roster().delete(character["id"])
    if state["picked"] == character["id"]:
        _pick(None)
    close_editor()
    say(" ".join([f"Deleted {character['name']}.", *warnings]))
    render()
