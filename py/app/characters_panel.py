"""Saved characters on the page: the bar over the form (who is rolling, what they pick, their
Luck and XP, undo of the last spend) and the editor dialog (name, notes, stocks, sheets).

On a phone, with a character picked, the bar is one line: the name, Luck and XP, and "From the
sheet" showing the skill the form holds from it; the rarer tools fold behind "More" (app.css).

Names and notes are player text: they reach the page as text or escaped, never as markup.
"""

from __future__ import annotations

from html import escape
from types import ModuleType

from pyscript import document, web, when

from . import browser, character_form, characters, dom, editor_draft, forms, sheet_pick, spending
from .browser import guarded
from .characters import (
    MERGED,
    EditConflict,
    Roster,
    SpendError,
    counted,
    edited,
    fill,
    import_question,
    import_summary,
    limits,
    part_of,
    read_file,
    spend_problem,
    with_part,
    within_limits,
)
from .session import Session
from .sheet_pick import Pick, Switch
from .spending import Judged
from .storage import FieldError
from .systems import SKILL_LIST, resource_of

PICKED_KEY = "skillcheck.picked"
GROUPS = tuple(character_form.GROUPS)
session: Session  # handed in by main.py at boot (start), with the panel it calls:
log_panel: ModuleType  # log, render
BAR = browser.FileBar("who-status")
say = BAR.say


def roster() -> Roster:
    return session.roster


def start(booted: Session, log: ModuleType) -> None:
    """Load the characters; the session's `fill_form(mode, values)` puts a pick into the form."""
    global session, log_panel
    session, log_panel = booted, log
    session.roster = Roster(session.storage)
    try:
        picked = int(session.storage.get(PICKED_KEY) or 0)
    except Exception:  # unreadable storage, or not a number: nobody is picked
        picked = 0
    session.picked = picked if roster().get(picked) else None
    options = dom.skill_options(SKILL_LIST)
    for group in character_form.SKILL_GROUPS:  # their rows name a skill of the seed's list
        template = document.getElementById(f"{group}-template").content
        template.querySelector("select[data-skills]").insertAdjacentHTML("beforeend", options)
    for control in ("who-character", "who-new", "who-import"):
        web.page[control].disabled = False
    say(" ".join(roster().warnings))
    render()
    offer_draft()


def refresh() -> bool:
    """Another tab changed the characters: take them in and redraw the bar (and the offer of a
    draft, which says when its character was changed since); True if anything changed."""
    if not roster().refresh():
        return False
    if not picked():
        _pick(None)
    render()
    offer_draft()
    return True


def picked() -> dict | None:
    return roster().get(session.picked) if session.picked else None


def who(request: dict) -> dict | None:
    """Whom a check of `request` is rolled for: the picked character's name, and the sheet's
    skill while the form still holds every value that pick filled in; None with nobody picked."""
    character = picked()
    if character is None:
        return None
    filled = session.forms_kept.pick_of(request.get("system"), request.get("mode"))
    if filled and filled.character == character["id"] and filled.holds(request):
        return {"name": character["name"], "skill": filled.skill}
    return {"name": character["name"]}


def _pick(character_id: int | None) -> None:
    session.picked = character_id
    try:
        if character_id:
            session.storage.set(PICKED_KEY, str(character_id))
        else:
            session.storage.remove(PICKED_KEY)
    except Exception:  # which character is picked is a convenience: never worth a warning
        pass


# ---- the bar over the form -----------------------------------------------------------------------

def render() -> None:
    """The bar for the picked character and the shown system; caps on the shown form."""
    character = picked()
    web.page["who-character"].innerHTML = '<option value="">No character</option>' + "".join(
        f'<option value="{c["id"]}">{escape(c["name"])}</option>' for c in roster().all())
    web.page["who-character"].value = str(character["id"]) if character else ""
    system, mode = dom.chosen()
    choices = character_form.pick_options(character, system) if character else []
    web.page["who-pick"].innerHTML = '<option value="">Choose…</option>' + "".join(
        f'<option value="{escape(value)}">{escape(label)}</option>' for value, label in choices)
    if session.forms_kept.pick_of(system, mode):
        show_in_use(_shown_request())
    web.page["who-pick-field"].hidden = not choices
    web.page["who-side-field"].hidden = not (choices and character_form.sides_offered(system,
                                                                                     mode))
    web.page["who-stock"].innerHTML = (  # two short lines on a phone, the dot left out
        f'<span>Luck {character["luck"]:,}</span><span class="who-dot"> · </span>'
        f'<span>XP {character["xp"]:,}</span>' if character else "")
    web.page["who-edit"].hidden = web.page["who-more"].hidden = character is None
    if character:
        web.page["who-more"].setAttribute("aria-label", f"More for {character['name']}")
    web.page["who-export"].disabled = not roster().all()
    last = character and character["last_spend"]
    undo = web.page["who-undo"]
    undo.hidden = not last
    if last:
        resource = resource_of(last["system"])
        undo.textContent = f"Undo last spend ({last['amount']:,} {resource.label})"
    caps()


def _shown_request() -> dict:
    system, mode = dom.chosen()
    return forms.request_from(system, mode, dom.controls(dom.active_form()))


def show_in_use(request: dict) -> None:
    """"From the sheet" shows the skill the form `request` still holds from the pick (who), or
    "Choose…" once the player changed what it filled in, so that picking it again fills it."""
    _show_pick((who(request) or {}).get("skill", ""))


def _show_pick(name: str) -> None:
    """"From the sheet" showing `name`, or "Choose…" for a skill the sheet does not list (the
    GM's table fills a Basic skill unskilled)."""
    box = web.page["who-pick"]
    box.value = name
    if box._dom_element.selectedIndex < 0:
        box.value = ""


def fold(focus: bool = False) -> None:
    """The tools behind "More" put away (and, with `focus`, the focus on More again)."""
    more = web.page["who-more"]
    more.setAttribute("aria-expanded", "false")
    if focus:
        more._dom_element.focus()


@when("click", "#who-more")
@guarded
def on_more(event) -> None:
    """More shows or hides the rarer tools in place, under the line; the focus stays on it."""
    more = web.page["who-more"]
    more.setAttribute("aria-expanded", "false" if more.getAttribute("aria-expanded") == "true"
                      else "true")


@when("keydown", "#who-more, #who-tools")
@guarded
def on_more_key(event) -> None:
    """Escape on More or in the tools it opened puts them away, the focus back on More."""
    more = web.page["who-more"]
    if event.key == "Escape" and not more.hidden and more.getAttribute("aria-expanded") == "true":
        event.preventDefault()
        fold(focus=True)


def caps() -> None:
    """The shown form's Luck or Insurance box stops at what the picked character has."""
    system, _ = dom.chosen()
    resource = resource_of(system)
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


def within_stock(request: dict) -> dict:
    """`request` offering no more than the picked character has left (see within_limits)."""
    character = picked()
    return within_limits(character, request) if character else request


def check_spend(request: dict, already: int = 0) -> None:
    """Before rolling: FieldError beside the Luck or Insurance box when the picked character
    cannot offer what the request offers, beyond the `already` it took for the same draw."""
    character = picked()
    problem = character and spend_problem(character, request, already)
    if problem:
        raise FieldError(resource_of(request["system"]).field, problem)


def pays(request: dict) -> bool:
    """Whether the picked character pays for `request`: it offers their Luck or Insurance, so
    it is judged at this tab's turn at the lock, against the stock as stored then (spending.py)."""
    resource = resource_of(request.get("system"))
    offered = request.get(resource.field) if resource else None
    return picked() is not None and isinstance(offered, int) and offered > 0


def affordable(result: dict) -> list[dict]:
    """The Luck offers on `result`'s dice the picked character can still pay (all, with none)."""
    character = picked()
    return characters.affordable(character, result) if character else (
        result.get("luck_offers") or [])


def offers_gone(left: list[dict]) -> str:
    """Why Luck offers shown a moment ago are gone: another tab spent the picked character's."""
    character = picked()
    gone = "the dearer offers are gone" if left else "not enough for any offer on these dice"
    return (f"{character['name']} has only {character['luck']:,} Luck now (another tab spent "
            f"some): {gone}.")


def paid(judged: Judged) -> None:
    """Say what a judged check took from the character, and redraw the bar (and caps)."""
    if judged.record is not None:
        say(" ".join([judged.record["text"], *judged.warnings]))
    render()


@when("change", "#who-character")
@guarded
def on_character(event) -> None:
    value = event.target.value
    pick(int(value) if value else None)


@when("change", "#who-pick")
@guarded
def on_pick(event) -> None:
    character, name = picked(), event.target.value
    if character is None or not name:
        return
    fill_from(character, name, fill(character, dom.chosen()[0], name),
              str(web.page["who-side"].value))


def pick(character_id: int | None) -> None:
    """Pick a character to roll for (None: nobody), from the bar's list or the GM's table; the
    form a pick filled from another character's sheet is filled from theirs, or put back as
    drawn when theirs lacks the skill (sheet_pick.py)."""
    character = roster().get(character_id) if character_id else None
    before, switch = _switched(character)  # before their caps lower the form's Luck
    _pick(character["id"] if character else None)
    say("")
    fold()
    render()
    _carry_out(before, switch, character)


def follow() -> None:
    """The form shown now (another system or kind of check chosen, or the page loaded after
    another tab picked someone else) follows the picked character as a pick does: a form
    another character's sheet filled never rolls with their numbers. Before the caps (render)."""
    character = picked()
    _carry_out(*_switched(character), character)


def _switched(character: dict | None) -> tuple[Pick | None, Switch]:
    """The shown form's pick, and what picking `character` does to it (sheet_pick.switched)."""
    system, mode = dom.chosen()
    before = session.forms_kept.pick_of(system, mode)
    if before is None:  # the form was filled by no pick: nothing to read (a system shown)
        return None, Switch.KEEP
    return before, sheet_pick.switched(before, _shown_request(), character)


def _carry_out(before: Pick | None, switch: Switch, character: dict | None) -> None:
    """The shown form filled again from `character`'s sheet, or put back as drawn and said."""
    system, mode = dom.chosen()
    if switch is Switch.REFILL:
        fill_from(character, before.skill, fill(character, system, before.skill), before.side)
    elif switch is Switch.RESET:
        session.forms_kept = session.forms_kept.picked(system, mode, None)
        session.fill_form(None, {}, fresh=True)
        say(sheet_pick.gone_said(before, character, system))


def fill_from(character: dict, name: str, fields: dict, chosen: str = "",
              gm_set: bool = False) -> None:
    """Put `fields` for the character's `name` into the shown system's form as a pick "From
    the sheet" does: in the kind of check and on the side it needs (`chosen`: the player's), the
    sheet's specialization chosen, and said in the bar. The GM's party table fills a row the
    same way (main.py hands it over, `gm_set`), a Basic skill not on the sheet with its
    unskilled fields."""
    system, shown = dom.chosen()
    specialization = character_form.saved_specialization(character, system, name)
    mode, values = character_form.form_values(system, shown, name, fields, chosen,
                                              specialization)
    shown = mode or shown
    side = character_form.side_for(system, shown, chosen)
    session.forms_kept = session.forms_kept.picked(system, shown, Pick(
        character["id"], character["name"], name, character_form.as_request(values), side))
    session.fill_form(mode, values)  # and kept with its pick
    _show_pick(name)  # in use, until the form changes (show_in_use)
    said = specialization if character_form.chose_specialization(values) else ""
    say(character_form.pick_said(character, name, system, shown, side, said, gm_set),
        aside=True)


@when("change", "#who-side")
@guarded
def on_side(event) -> None:
    """The other side chosen: "From the sheet" is ready for its pick, the same skill too."""
    web.page["who-pick"].value = ""


@when("click", "#who-undo")
@guarded
async def on_undo(event) -> None:
    if picked() is None:
        return
    character_id = session.picked
    pressed = document.activeElement.id == "who-undo"
    try:  # the last spend as stored now: an undo in another tab has already given it back
        undone = await browser.change(
            lambda: spending.undo(roster(), log_panel.log(), character_id))
    except SpendError as error:
        say(str(error))
        render()
        return
    say(" ".join([undone.text, *undone.warnings]))
    render()
    if undone.entry is not None:  # the roll it paid for, judged again: shown so, if it is
        session.rejudged(undone.entry, undone.result)
    log_panel.render()
    if pressed and picked():  # Undo is gone now: the focus goes to its neighbour, not the page
        web.page["who-edit"]._dom_element.focus()


# ---- moving characters to another browser: export, import --------------------------------------

@when("click", "#who-export")
@guarded
def on_export(event) -> None:
    BAR.export(roster().export_name(), roster().export_json(), counted(len(roster().all())))


@when("change", "#who-import")
@guarded
async def on_import(event) -> None:
    await BAR.import_file(event, import_plan)


def import_plan(text: str) -> browser.ImportPlan:
    """A characters file is merged in, after a question when it replaces characters here."""
    characters = read_file(text)
    replaced = roster().replaced_by(characters)

    async def merge() -> None:
        added, replacing, warnings = await browser.change(lambda: roster().merge(characters))
        say(" ".join([import_summary(added, replacing), *warnings]), problem=bool(warnings))
        render()

    question = replaced and import_question(len(characters), replaced)
    return question or None, "Import and replace", merge


# ---- the editor ----------------------------------------------------------------------------------

def _editor():
    return web.page["character-form"]


def open_editor(character: dict | None) -> None:
    session.editing = character["id"] if character else None
    session.opened_as = character
    form = _editor()
    dom.clear_errors(form)
    _clear_conflicts()
    web.page["editor-error"].textContent = ""
    web.page["editor-title"].textContent = (f"Edit {character['name']}" if character
                                            else "New character")
    _fill(character)
    for details in form.find("details"):
        details.open = False
    web.page["editor-delete"].hidden = character is None
    session.opened = _would_save()
    dialog = web.page["character-editor"]._dom_element
    if not dialog.open:  # open already when its own offer of a draft is taken
        dialog.showModal()
    web.page["ce-name"]._dom_element.focus()
    offer_draft()


def _fill(character: dict | None) -> None:
    """The editor's boxes and rows showing `character` (None: empty, for a new one)."""
    _show(*character_form.editor_values(character))


def _show(rows: dict[str, int], values: dict[str, object]) -> None:
    """The editor holding `rows` rows in each group and `values` by control name."""
    for group in GROUPS:
        dom.reset_repeat(group)
        for _ in range(rows[group]):
            dom.repeat_add(group)
    _trait_lists(character_form.trait_names(forms.tree_from(
        (name, "text", value) for name, value in values.items() if name.startswith("pool_"))))
    dom.set_values(_editor(), values)


def _trait_lists(names: list[str] | None = None) -> None:
    """Each pool skill's Trait list offers the traits named above it (by default, as the
    editor holds them now), keeping its choice while that trait is still there."""
    if names is None:
        names = character_form.trait_names(forms.tree_from(dom.controls(_editor(),
                                                                        closed_too=True)))
    options = '<option value="">Choose a trait</option>' + "".join(
        f'<option value="{escape(name)}">{escape(name)}</option>' for name in names)
    for select in _editor().find("select[data-traits]"):
        was = select.value
        select.innerHTML = options
        select.value = was if was in names else ""


@when("input", "#character-form")
@guarded
def on_editor_input(event) -> None:
    """A trait named or renamed: the skills' Trait lists follow. Every edit is kept as the
    editor's draft at once, so a reload right after it loses nothing."""
    name = event.target.name or ""
    if name.startswith("pool_traits.") and name.endswith(".name"):
        _trait_lists()
    keep_draft()


def close_editor() -> None:
    web.page["character-editor"]._dom_element.close()
    _forget_own_draft()


@when("close", "#character-editor")
@guarded
def on_editor_closed(event) -> None:
    """However the editor closed (Escape with nothing changed closes it by itself), its edits
    were saved or dropped: its draft goes, and another one kept is offered in the bar again."""
    _forget_own_draft()
    offer_draft()


def _would_save(controls: list | None = None) -> dict:
    """What Save would save now from the editor's `controls` (dom.controls: read now, unless
    given); while the editor holds something Save would refuse (a new character still without
    a name), its boxes as typed."""
    tree = forms.tree_from(dom.controls(_editor(), closed_too=True) if controls is None
                           else controls)
    try:
        return character_form.character_fields(tree)[0]
    except FieldError:
        return tree


def unsaved() -> bool:
    """Whether the editor holds edits Save has not kept: a row added and left empty is none."""
    return _would_save() != session.opened


def dismiss() -> None:
    """Escape, Back or Cancel: the editor closes at once when nothing changed, else after the
    player agrees to drop their edits (the page's own question, not window.confirm)."""
    if not unsaved():
        close_editor()
        return
    saved = roster().get(session.editing) if session.editing else None
    browser.ask(f"Drop your changes? {saved['name']} stays as saved." if saved else
                "Drop this new character? Nothing is saved.", "Drop changes", close_editor)


@when("keydown", "#character-editor")
@guarded
def on_editor_key(event) -> None:
    """Escape asks first when there are edits; kept from the dialog, no close is requested."""
    if event.key == "Escape" and unsaved():
        event.preventDefault()
        dismiss()


@when("cancel", "#character-editor")
@guarded
def on_editor_cancel(event) -> None:
    """A close request other than Escape (a phone's Back gesture): the same question."""
    if unsaved():
        event.preventDefault()
        dismiss()


async def save() -> None:
    """Save the editor: a new character, or the edits merged on top of what another tab saved
    meanwhile (Roster.save_edit), at this tab's turn at the lock."""
    form = _editor()
    dom.clear_errors(form)
    _clear_conflicts()
    web.page["editor-error"].textContent = ""
    where: dict[str, str] = {}
    try:
        fields, where = character_form.character_fields(
            forms.tree_from(dom.controls(form, closed_too=True)))
        if session.editing:
            opened = session.opened_as
            mine = edited(opened, **fields)
            character, warnings = await browser.change(lambda: roster().save_edit(opened, mine))
        else:
            name = fields.pop("name")
            character, warnings = await browser.change(lambda: roster().create(name, **fields))
    except FieldError as error:
        control = character_form.control_for(error.field, where) or error.field
        shown = dom.show_error(form, control, error.reason)
        label = dom.label_of(form, control) if shown else error.field
        web.page["editor-error"].textContent = f"{label}: {error.reason}"
        return
    except EditConflict as conflict:
        _conflicted(conflict, mine)
        return
    close_editor()
    _pick(character["id"])
    say(" ".join([f"Saved {character['name']}.", *warnings]))
    render()


def _conflicted(conflict: EditConflict, mine: dict) -> None:
    """Another tab changed the character being edited, so nothing was saved: the editor now
    holds what that tab saved where only it changed something and what the player typed
    elsewhere, each field both changed is marked with the other tab's value to take instead,
    and the next Save merges against what that tab saved."""
    stored = conflict.stored
    if stored is None:  # deleted meanwhile: the edits can still be kept, as a new character
        session.editing = session.opened_as = None
        web.page["editor-title"].textContent = "New character"
        web.page["editor-delete"].hidden = True
        web.page["editor-error"].textContent = (
            f"{mine['name']} was deleted in another tab. Save again to keep what you typed as "
            "a new character.")
        keep_draft()
        return
    _on_top(mine, stored)
    web.page["editor-error"].textContent = character_form.conflict_text(stored["name"],
                                                                        conflict.fields)
    keep_draft()  # what the next Save merges against has changed


def _on_top(mine: dict, stored: dict) -> list[str]:
    """The editor holding `mine`, an edit of the character as it opened, on top of `stored`,
    a save of it since (editor_draft.on_top), each field both changed marked with the stored
    value to take instead; the next Save merges against `stored`. The fields marked."""
    view, conflicts = editor_draft.on_top(session.opened_as, mine, stored)
    session.opened_as = stored
    _fill(view)
    for field in conflicts:
        _mark_conflict(field, part_of(stored, field))
    return conflicts


def _mark_conflict(field: str, theirs) -> None:
    """Beside `field` (above its rows, for a sheet): what the other tab saved, and a button to
    take it instead."""
    text = character_form.theirs_text(field, theirs)
    choice = (f"Use the other tab’s {character_form.merged_words(field)}", field)
    if not field.startswith("sheets."):
        dom.set_note(_editor(), field, text, choice)
        return
    group = web.page.find(f'[data-repeat="{character_form.sheet_group(field)}"]')[0]
    part = group._dom_element.closest("details")
    part.open = True
    note = dom.note(_conflict_id(field), text, choice)
    part.querySelector("summary").after(note)


def _conflict_id(field: str) -> str:
    return "conflict-" + field.replace(".", "-")


def _clear_conflicts() -> None:
    for field in MERGED:
        if field.startswith("sheets."):
            for note in _editor().find(f"#{_conflict_id(field)}"):
                note._dom_element.remove()
        else:
            dom.set_note(_editor(), field, None)


def use_theirs(field: str) -> None:
    """The player takes the other tab's value of a field both changed."""
    theirs = part_of(session.opened_as, field)
    if not field.startswith("sheets."):
        dom.set_values(_editor(), {field: theirs})
        dom.set_note(_editor(), field, None)
        web.page[f"ce-{field}"]._dom_element.focus()
        keep_draft()
        return
    try:
        fields, _ = character_form.character_fields(
            forms.tree_from(dom.controls(_editor(), closed_too=True)))
        draft = edited(session.opened_as, **fields)
    except FieldError as error:  # the editor holds a mistake: Save will point at it
        web.page["editor-error"].textContent = f"{error}. Correct it first."
        return
    _fill(with_part(draft, field, theirs))
    for note in _editor().find(f"#{_conflict_id(field)}"):
        note._dom_element.remove()
    keep_draft()


@when("click", "#who-new, #who-edit")
@guarded
def on_new_or_edit(event) -> None:
    open_editor(picked() if event.currentTarget.id == "who-edit" else None)


@when("submit", "#character-form")
@guarded
def on_save(event) -> None:
    event.preventDefault()  # before anything is awaited: the form is never sent
    browser.spawn(save())


@browser.button_clicks("#character-form")
def on_editor_button(button) -> None:
    if dom.repeat_button(button, added=_focus_first):
        _trait_lists()  # a skill row added gets the list; a trait row removed leaves it
        keep_draft()  # a row removed is an edit
        return
    if button.hasAttribute("data-choice"):
        use_theirs(button.getAttribute("data-choice"))
    elif button.id in ("editor-draft-restore", "editor-draft-discard"):
        on_draft_button(button.id.removeprefix("editor-draft-"))
    elif button.id == "editor-cancel":
        dismiss()
    elif button.id == "editor-delete":
        character = roster().get(session.editing)
        browser.ask(f"Delete {character['name']}? Their sheet, Luck and XP are forgotten; the "
                    "log keeps what they spent.", "Delete", lambda: delete(character))


def _focus_first(row) -> None:
    """A row just added: its first box takes the focus, to be typed in."""
    row.find("input, select")[0]._dom_element.focus()


async def delete(character: dict) -> None:
    warnings = await browser.change(lambda: roster().delete(character["id"]))
    if session.picked == character["id"]:
        _pick(None)
    draft = editor_draft.load(session.storage)
    if draft is not None and draft.editing == character["id"]:
        editor_draft.forget(session.storage)
    close_editor()
    say(" ".join([f"Deleted {character['name']}.", *warnings]))
    render()


# ---- the editor's draft, kept across a reload (editor_draft.py) ---------------------------------

def keep_draft() -> None:
    """Keep what the editor holds as the one draft, for a reload to offer back; an editor
    holding nothing Save would keep has none (its own, written before, goes)."""
    controls = dom.controls(_editor(), closed_too=True)
    if _would_save(controls) == session.opened:  # nothing Save would keep (unsaved)
        _forget_own_draft()
        return
    values = {name: raw for name, _, raw in controls}
    session.draft_kept = editor_draft.keep(
        session.storage, editor_draft.begun(values, session.opened_as))
    offer_draft()


def _forget_own_draft() -> None:
    """The draft this tab wrote or restored goes, unless another tab has kept one since."""
    if session.draft_kept is not None and _stored_draft() == session.draft_kept:
        editor_draft.forget(session.storage)
    session.draft_kept = None


def _stored_draft() -> str | None:
    try:
        text = session.storage.get(editor_draft.KEY)
    except Exception:  # unreadable storage: no draft
        return None
    return text if isinstance(text, str) else None


def offer_draft() -> None:
    """Offer the draft kept, unless it is the open editor's own: in the bar, or at the top of
    the editor while it is open (on load, as the editor opens, when another tab keeps one or
    saves the characters)."""
    kept = _stored_draft()
    draft = editor_draft.load(session.storage) if kept not in (None, session.draft_kept) else None
    shown = draft is not None
    text = ""
    if shown:
        state = editor_draft.standing(draft, _edited_now(draft))
        text = editor_draft.offer_text(draft, state, browser.short_time(draft.time, False))
    editing = bool(web.page["character-editor"]._dom_element.open)
    for place, hidden in (("who-draft", not shown or editing),
                          ("editor-draft", not shown or not editing)):
        web.page[place].hidden = hidden
        web.page[f"{place}-text"].textContent = text


def _edited_now(draft: editor_draft.Draft) -> dict | None:
    return roster().get(draft.editing) if draft.editing else None


@when("click", "#who-draft-restore, #who-draft-discard")
@guarded
def on_offer(event) -> None:
    on_draft_button(event.currentTarget.id.removeprefix("who-draft-"))


def on_draft_button(choice: str) -> None:
    """Restore or Discard, in the bar or the editor."""
    if choice == "restore":
        restore_draft()
        return
    editor_draft.forget(session.storage)
    session.draft_kept = None
    offer_draft()


def restore_draft() -> None:
    """The editor holding the draft kept: on the character as stored now, with the draft's
    values; over a save since, what only that save changed is taken in and what both changed
    is marked (as after a save another tab got in the way of); a character deleted since is
    restored as a new one."""
    draft = editor_draft.load(session.storage)
    if draft is None:  # discarded or saved in another tab meanwhile
        offer_draft()
        return
    stored = _edited_now(draft)
    state = editor_draft.standing(draft, stored)
    open_editor(stored)
    session.draft_kept = _stored_draft()
    _show(draft.rows(), draft.values)
    conflicts: list[str] = []
    if state == editor_draft.CHANGED:
        session.opened_as = draft.began_from()  # Save merges the draft's changes on `stored`
        try:
            fields, _ = character_form.character_fields(
                forms.tree_from(dom.controls(_editor(), closed_too=True)))
            mine = edited(session.opened_as, **fields)
        except FieldError:  # a mistake in the draft: shown as typed, Save points at it
            mine = None
        if mine is not None:
            conflicts = _on_top(mine, stored)
    web.page["editor-error"].textContent = editor_draft.restored_text(
        draft.name(), state, [character_form.merged_words(field) for field in conflicts])
    offer_draft()
