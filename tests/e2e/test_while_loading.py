"""While Python loads (issue 17, point 8): the form a link names is shown from the first paint
and stays (no flash of the card form), the +/− steppers are there and work, and a line near the
roll button says what the odds wait for. Python is held back here (its entry script is answered
only when the test says so), so "before Python" is certain, not a race."""

from __future__ import annotations

import pytest
from conftest import PHONE
from playwright.sync_api import Page, expect
from ready import wait_ready
from test_page import labelled

PHONE_390 = {**PHONE, "viewport": {"width": 390, "height": 844}}

# Every frame until ready: which form is drawn, whether its steppers show, the loading line.
FRAMES = """
window.framesSeen = [];
const look = () => {
  const shown = [...document.querySelectorAll('.sysform')]
    .filter(form => getComputedStyle(form).display !== 'none').map(form => form.id);
  const step = [...document.querySelectorAll('.sysform .stepper:not(:has(:disabled)) .step')]
    .find(button => button.getBoundingClientRect().width > 0);
  const ready = document.documentElement.dataset.ready === 'true';
  framesSeen.push({ready, shown,
                   steps: step ? getComputedStyle(step).visibility : null});
  if (!ready) requestAnimationFrame(look);
};
requestAnimationFrame(look);
"""


# While loading: words about Python anywhere on screen, the loading status overlapping its
# amount, and the form's labels left under the fixed roll bar once the page is scrolled down.
LOADING_LOOK = """() => {
  const over = (a, b) =>
    a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
  const box = (selector) => document.querySelector(selector).getBoundingClientRect();
  scrollTo(0, document.documentElement.scrollHeight);
  const bar = box('.action');
  const labels = [...document.querySelectorAll('.sysform label, .sysform legend')]
    .filter(label => label.getBoundingClientRect().width > 0);
  return {python: /python/i.test(document.body.innerText),
          status: document.getElementById('boot-status').innerText,
          crossed: over(box('#boot-status label'), box('#boot-amount')),
          under: labels.filter(label => over(label.getBoundingClientRect(), bar))
                       .map(label => label.innerText)};
}"""


@pytest.fixture(params=[PHONE_390])
def held(new_context, request) -> dict:
    """A phone page whose Python entry script waits until `release()` (no service worker, which
    would answer it past the hold)."""
    context = new_context(**request.param, service_workers="block")
    context.add_init_script(FRAMES)
    page = context.new_page()
    waiting = []
    page.route("**/py/main.py", lambda route: waiting.append(route))

    def release() -> None:
        for _ in range(600):  # the runtime asks for it once it has started
            if waiting:
                break
            page.wait_for_timeout(100)
        assert waiting, "Python never asked for its entry script"
        waiting.pop().continue_()
        wait_ready(page)

    return {"page": page, "release": release}


def test_a_linked_form_shows_from_the_first_paint_with_working_steppers(held, app_url):
    page: Page = held["page"]
    page.goto(app_url + "#system=flip&mode=team", wait_until="domcontentloaded")
    team = page.locator("#form-flip-team")
    expect(team).to_be_visible()
    expect(page.locator("html[data-ready='true']")).to_have_count(0)
    rank = labelled(team.get_by_role("group", name="Primary"), "Rank")
    plus = rank.locator("xpath=following-sibling::button[1]")
    expect(plus).to_be_visible()
    plus.click()
    plus.click()
    expect(rank).to_have_value("4")

    note = page.get_by_text("the exact odds appear once they have loaded")
    expect(note).to_be_visible()
    gap = page.evaluate("""() => document.getElementById('roll').getBoundingClientRect().top
        - document.querySelector('.loading-note').getBoundingClientRect().bottom""")
    assert 0 <= gap < 40, f"the loading line is {gap} px from the roll button"
    assert page.locator(".loading-note").bounding_box()["y"] < 844

    held["release"]()
    expect(team).to_be_visible()
    expect(rank).to_have_value("4")  # typed while loading: kept
    expect(note).to_be_hidden()
    frames = [f for f in page.evaluate("framesSeen") if f["shown"]]
    assert frames and not frames[0]["ready"]
    assert {tuple(f["shown"]) for f in frames} == {("form-flip-team",)}, "another form flashed"
    # never hidden while loading (a frame drawn before the form's layout has no step to see)
    assert {f["steps"] for f in frames} - {None} == {"visible"}


@pytest.mark.parametrize("held", [{**PHONE, "viewport": {"width": width, "height": 640}}
                                  for width in (320, 360, 390)],
                         ids=["320 px", "360 px", "390 px"], indirect=True)
def test_loading_speaks_of_the_rules_beside_the_form_a_first_visit_links(held, app_url):
    """Issue 35, point 12: a first visit to a d10 pool link, the runtime still on its way."""
    page: Page = held["page"]
    page.goto(app_url + "#system=pool", wait_until="domcontentloaded")
    expect(page.locator("#boot-status")).to_have_text("Setting up the rules…", timeout=30_000)
    look = page.evaluate(LOADING_LOOK)
    assert not look["python"], "the loading copy speaks of Python"
    assert not look["crossed"], "the loading status runs into its amount"
    assert look["under"] == [], f"form labels under the roll bar: {look['under']}"
    expect(page.locator("#roll")).to_have_text("Almost ready…")
    held["release"]()
    frames = [f for f in page.evaluate("framesSeen") if f["shown"]]
    assert frames and not frames[0]["ready"]
    assert {tuple(f["shown"]) for f in frames} == {("form-pool",)}, "another form flashed"


def test_downloads_done_before_the_parse_ends_are_still_shown_as_done(held, app_url):
    """The runtime downloads from the page's head; the bar's module runs once the parse is done.
    On a fast link every byte can have come by then (a busy CI run had it), and the bar, hearing
    no report, said "Downloading the rules…" until its watch called the held page stalled. Here
    the bar's module is held until the runtime is up: it is told the latest report at once."""
    page: Page = held["page"]
    late = []
    page.route("**/static/js/boot-progress.js", lambda route: late.append(route))
    page.goto(app_url + "#system=pool", wait_until="commit")
    page.wait_for_function(
        "() => performance.getEntriesByName('skillcheck runtime: up').length > 0")
    assert len(late) == 1
    late.pop().continue_()
    expect(page.locator("#boot-status")).to_have_text("Setting up the rules…")
    expect(page.locator("#roll")).to_have_text("Almost ready…")
    expect(page.locator("#boot-bar")).to_be_visible()
    assert page.locator("#boot-bar").evaluate("bar => bar.value === bar.max")
    held["release"]()
    expect(page.locator("#boot-stopped")).to_have_text("")


def test_a_page_without_a_link_shows_the_form_kept_from_the_last_visit(held, app_url):
    page: Page = held["page"]
    page.goto(app_url + "#system=swift", wait_until="domcontentloaded")
    held["release"]()
    page.evaluate("""() => addEventListener('pagehide', () => localStorage.setItem(
        'skillcheck.forms', JSON.stringify({version: 1, kind: 'forms',
        shown: {system: 'fluke', mode: null}, values: {}})))""")
    page.goto(app_url, wait_until="domcontentloaded")
    expect(page.locator("#form-fluke")).to_be_visible()
    held["release"]()
    frames = [f for f in page.evaluate("framesSeen") if f["shown"]]
    assert {tuple(f["shown"]) for f in frames} == {("form-fluke",)}, "another form flashed"
    expect(page.locator("#form-fluke")).to_be_visible()


def test_once_python_runs_a_stepper_steps_once_and_nothing_goes_wrong(app):
    """The steppers are early-form.js's alone; the glue's click handler for the form's buttons
    once also took them for its own, failed on each click, and said something went wrong."""
    errors: list[str] = []
    app.on("console", lambda message: message.type == "error" and errors.append(message.text))
    skill = labelled(app.locator("#form-flip-unopposed"), "Rank")
    odds = app.locator("#odds").inner_html()
    skill.locator("xpath=following-sibling::button[1]").click()
    expect(skill).to_have_value(str(int(skill.get_attribute("value")) + 1))
    expect(app.locator("#odds")).not_to_have_js_property("innerHTML", odds)  # worked out again
    app.evaluate("0")  # what the page said before this answer has reached the test
    expect(app.locator("#form-error")).to_be_empty()
    assert errors == []
