"""Nothing changes under the player's name without them seeing it (issue 17, point 1): phones
reload tabs left in the background, and the page comes back as it was — each system's form, the
card flip's mode, the last result shown again from the log — while a link still wins; after a
Luck spend the Luck box comes down to what is left instead of refusing the next roll."""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import Page, expect
from presses import press_roll
from ready import wait_ready
from test_page import FORM_IDS, fill, labelled, open_form
from test_table import new_character, roll, stock, stored_log

PHONE_390 = {"width": 390, "height": 844}
POOL = {"Trait": 6, "Skill": 7, "DR": 3, "Bonus": 1}


@pytest.fixture
def phone(app: Page) -> Page:
    app.set_viewport_size(PHONE_390)
    return app


def reload(page: Page, url: str | None = None) -> Page:
    if url is None:
        page.reload()
    else:
        page.goto("about:blank")
        page.goto(url)
    wait_ready(page)
    return page


def values(form, labels) -> dict[str, str]:
    return {label: labelled(form, label).input_value() for label in labels}


def test_a_reload_keeps_each_form_the_mode_and_the_last_result(phone, app_url):
    new_character(phone, "Mara Voss", luck=3)
    form = open_form(phone, "pool")
    for label, value in {**POOL, "Luck": 3}.items():
        fill(form, label, value)
    fill(form, "My dice", "1 2 9 4 10 3")
    roll(phone)
    shown = [phone.locator("#result .headline").inner_text(),
             phone.locator("#result .dice").inner_html()]
    expect(phone.locator("#odds .odds-success")).to_contain_text("99.9 %")  # issue 17's Mara
    odds = phone.locator("#odds").text_content()
    phone.locator("#pick-flip").check()  # from here on as a player moves: by the pickers
    phone.locator("#mode-team").check()
    team = phone.locator("#form-flip-team")
    fill(team, "Difficulty", "")
    fill(team, "DTN", 16)
    phone.get_by_role("button", name="Add a helper").click()
    fill(team.get_by_role("group", name="Helper 2"), "Rank", 4)
    phone.locator("#pick-pool").check()  # back to the pool, as a player would
    expect(phone.locator("#form-pool")).to_be_visible()
    phone.wait_for_function("() => JSON.parse(localStorage.getItem('skillcheck.forms'))"
                            ".shown.system === 'pool'")

    reload(phone)
    form = phone.locator("#form-pool")
    expect(form).to_be_visible()
    assert values(form, [*POOL, "Luck"]) == {k: str(v) for k, v in {**POOL, "Luck": 3}.items()}
    expect(phone.get_by_label("Character", exact=True)).to_have_value(
        str(stored_characters(phone)[0]["id"]))
    expect(stock(phone)).to_contain_text("Luck 3")
    expect(phone.locator("#odds")).to_have_text(odds)
    source = phone.locator("#result .source")
    expect(source).to_contain_text("From the log")
    assert [phone.locator("#result .headline").inner_text(),
            phone.locator("#result .dice").inner_html()] == shown  # the same dice, not new ones
    assert len(stored_log(phone)["entries"]) == 1  # shown again, never rolled again

    # A bare address (a home-screen start) opens the form shown last, the flip keeps its mode.
    reload(phone, app_url)
    expect(phone.locator("#form-pool")).to_be_visible()
    assert values(phone.locator("#form-pool"), POOL) == {k: str(v) for k, v in POOL.items()}
    phone.locator("#pick-flip").check()
    team = phone.locator(f"#{FORM_IDS['flip', 'team']}")
    expect(team).to_be_visible()
    expect(labelled(team, "DTN")).to_have_value("16")
    expect(labelled(team.get_by_role("group", name="Helper 2"), "Rank")).to_have_value("4")


def stored_characters(page: Page) -> list[dict]:
    return json.loads(page.evaluate("localStorage.getItem('skillcheck.characters')"))[
        "characters"]


def test_a_link_naming_a_system_wins_over_the_form_shown_last(phone, app_url):
    form = open_form(phone, "flip", "team")
    fill(form, "Difficulty", "")
    fill(form, "DTN", 16)
    reload(phone, app_url + "#system=fluke")  # at once: the page keeps the form as it goes
    expect(phone.locator("#form-fluke")).to_be_visible()
    reload(phone, app_url + "#system=flip&mode=opposed")
    expect(phone.locator("#form-flip-opposed")).to_be_visible()
    phone.locator("#mode-team").check()
    expect(labelled(phone.locator("#form-flip-team"), "DTN")).to_have_value("16")


def store_as_it_goes(page: Page, raw: str) -> Page:
    """Put `raw` in storage as the page goes, after the page has kept its own form."""
    page.evaluate("raw => addEventListener('pagehide', () => "
                  "localStorage.setItem('skillcheck.forms', raw))", raw)
    return page


def test_stale_or_hostile_stored_forms_never_stop_the_page(phone, app_url):
    errors: list[str] = []
    phone.on("pageerror", lambda error: errors.append(str(error)))
    for raw in ('{"version":1,"kind":"forms","shown":{"system":"pool\\"]"},'
                '"values":{"pool":{"trait":"<b>9</b>","dr\\"]":"3","luck":5,"skill":"99"}}}',
                '{"version":1,"kind":"forms","shown":{"system":"nope","mode":"x"},'
                '"values":{"flip/team":{"secondaries.99.rank":"3"}}}',
                "not json", '{"version":7,"kind":"forms"}'):
        page = reload(store_as_it_goes(phone, raw), app_url)
        expect(page.locator("#roll")).to_be_enabled()
        expect(page.locator("#form-error")).to_be_empty()
        visible = page.locator(".sysform:visible")
        expect(visible).to_have_count(1)
        roll(page)
    page = reload(store_as_it_goes(phone, json.dumps({
        "version": 1, "kind": "forms", "shown": {"system": "pool"},
        "values": {"pool": {"skill": "99"}}})), app_url)
    form = page.locator("#form-pool")
    expect(form).to_be_visible()
    expect(labelled(form, "Skill")).to_have_value("99")  # kept, and named beside its box
    expect(page.locator("#pool-skill-error")).to_be_visible()
    assert errors == []


def test_after_a_luck_spend_the_box_comes_down_and_roll_and_re_roll_still_work(phone):
    new_character(phone, "Mara Voss", luck=3)
    form = open_form(phone, "pool")
    for label, value in {"Trait": 5, "Skill": 7, "DR": 4, "Luck": 3}.items():
        fill(form, label, value)
    fill(form, "My dice", "1 2 9 8 8")  # two natural successes: two Luck lower the 8s to 7s
    roll(phone)
    expect(phone.locator('#result [data-fact="luck_used"] dd')).to_have_text("2")
    expect(stock(phone)).to_contain_text("Luck 1")
    luck = labelled(form, "Luck")
    expect(luck).to_have_value("1")
    expect(luck).not_to_have_attribute("aria-invalid", "true")
    expect(phone.locator("#odds .problem")).to_have_count(0)
    expect(phone.locator("#odds .odds-success")).to_be_visible()

    fill(form, "My dice", "")
    roll(phone)  # the next Roll is not refused
    expect(phone.locator("#form-error")).to_be_empty()
    before = len(stored_log(phone)["entries"])
    press_roll(phone, phone.get_by_role("button", name="Re-roll"))
    phone.wait_for_function("n => JSON.parse(localStorage.getItem('skillcheck.log'))"
                            ".entries.length > n", arg=before)
    expect(phone.locator("#form-error")).to_be_empty()
    expect(luck).not_to_have_attribute("aria-invalid", "true")


def test_only_the_shown_form_is_built_and_each_keeps_what_was_typed(phone, app_url):
    """The forms not shown wait as templates (so a visit is ready sooner); one is built the
    first time it is chosen, and a form once built keeps what the player typed in it."""
    reload(phone, app_url + "#system=fluke")
    expect(phone.locator("#check .sysform")).to_have_count(1)
    expect(phone.locator("#check template.sysform-later")).to_have_count(7)
    fill(phone.locator("#form-fluke"), "Dice to roll", 4)
    phone.locator("#pick-flip").check()
    phone.locator("#mode-opposed").check()
    opposed = phone.locator("#form-flip-opposed")
    expect(opposed).to_be_visible()
    initiator = opposed.get_by_role("group", name="Initiator")
    initiator.get_by_label("Skill", exact=True).select_option("Athletics")  # its skill list
    expect(initiator.locator(".aspect-hint").first).to_have_text("(HS)")
    expect(phone.locator("#check .sysform")).to_have_count(3)  # unopposed on the way
    phone.locator("#pick-fluke").check()
    expect(labelled(phone.locator("#form-fluke"), "Dice to roll")).to_have_value("4")
    phone.locator("#pick-flip").check()
    expect(initiator.get_by_label("Skill", exact=True)).to_have_value("Athletics")


def test_a_link_opened_afresh_leaves_forms_not_shown_yet_as_the_page_draws_them(phone, app_url):
    form = open_form(phone, "pool")
    for label, value in POOL.items():
        fill(form, label, value)
    phone.wait_for_function("() => JSON.parse(localStorage.getItem('skillcheck.forms'))"
                            ".shown.system === 'pool'")
    reload(phone, app_url + "#system=fluke")  # the pool form is not built
    phone.evaluate("location.hash = '#system=swift'")  # a link opened in this tab
    expect(phone.locator("#form-swift")).to_be_visible()
    phone.locator("#pick-pool").check()
    expect(phone.locator("#form-pool")).to_be_visible()
    assert phone.locator("#form-pool input").evaluate_all("""boxes => boxes.filter(box =>
        box.type === "checkbox" ? box.checked !== box.defaultChecked
        : box.value !== box.defaultValue).map(box => box.name)""") == []


# A helper added (the one change to a form that does not keep it at once, as typing does), then
# the page goes, in one task: the odds, which keep the form, have not run. How many times the
# page wrote the kept forms as it went, and the helpers' ranks they hold.
ADD_AND_GO = """(button, add) => {
  const set = Storage.prototype.setItem;
  let writes = 0;
  Storage.prototype.setItem = function (key, value) {
    writes += key === "skillcheck.forms";
    return set.call(this, key, value);
  };
  try {
    if (add) button.click();
    dispatchEvent(new PageTransitionEvent("pagehide"));
  } finally {
    Storage.prototype.setItem = set;
  }
  const kept = JSON.parse(localStorage.getItem("skillcheck.forms")).values["flip/team"];
  return [writes, Object.keys(kept).filter((name) => /^secondaries[.][0-9]+[.]rank$/.test(name))];
}"""


def test_the_page_keeps_the_form_as_it_goes_only_when_a_change_waits_for_its_odds(phone):
    form = open_form(phone, "flip", "team")
    odds = phone.locator("#odds")
    before = odds.inner_html()
    fill(form, "Difficulty", "")
    fill(form, "DTN", 16)
    expect(odds).not_to_have_js_property("innerHTML", before)  # worked out for DTN 16
    add = form.get_by_role("button", name="Add a helper")
    assert add.evaluate(ADD_AND_GO, False) == [0, ["secondaries.0.rank"]]  # kept already
    assert add.evaluate(ADD_AND_GO, True) == [1, ["secondaries.0.rank", "secondaries.1.rank"]]
    expect(form.get_by_role("group", name="Helper 2")).to_be_visible()
