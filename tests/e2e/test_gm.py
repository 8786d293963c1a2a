"""The GM's side of the table on two phones (issue 37 point 2): the GM commits to a secret DR on
the GM's own phone; the player's phone takes the code (from the QR, decoded from its picture with
zxing-cpp, or typed) into a secret roll; the GM reveals, and the player's page checks the reveal
against the commitment: "verified" when it matches, refused beside the box and nothing judged
when the difficulty or salt was changed. The GM's secrets stay across a reload."""

from __future__ import annotations

import re

import pytest
import skillcheck
from playwright.sync_api import Locator, Page, expect
from ready import wait_ready
from test_page import fill, labelled
from test_qr_dialog import read_qr
from test_table import log_size, roll, stored_log

POOL = {"system": "pool", "trait": 5, "skill": 7, "bonus": 0, "luck": 0}
DICE = [8, 3, 9, 1, 2]


@pytest.fixture(scope="module")
def phones(module_contexts, app_url: str) -> tuple[Page, Page]:
    """The GM's phone at #gm and a player's, each its own browser (storage apart), booted once."""
    gm, player = (module_contexts().new_page() for _ in range(2))
    gm.goto(app_url + "#gm")
    player.goto(app_url + "#system=pool")
    return wait_ready(gm), wait_ready(player)


@pytest.fixture
def table(phones: tuple[Page, Page]) -> tuple[Page, Page]:
    """Both phones with nothing stored, the GM's at #gm, the player's at the d10 pool."""
    for page, address in zip(phones, ("#gm", "#system=pool"), strict=True):
        page.evaluate("""address => {
            dispatchEvent(new Event("pagehide"));
            localStorage.clear();
            history.replaceState(null, "", address);
        }""", address)
        page.reload()
        wait_ready(page)
    return phones


def commit(gm: Page, system: str, difficulty: str, label: str) -> Locator:
    """Commit on the GM's side; the dialog it opens with the code."""
    side = gm.get_by_role("region", name="A secret difficulty")
    side.get_by_label("System").select_option(label=system)
    labelled(side, "DR" if system == "d10 pool" else "DTN").fill(difficulty)
    labelled(side, "What it is for").fill(label)
    side.get_by_role("button", name="Commit").click()
    dialog = gm.get_by_role("dialog", name=f"Code: {label}")
    expect(dialog).to_be_visible()
    return dialog


def shown(dialog: Locator) -> tuple[str, str]:
    """What the dialog's QR holds, read from its picture, and the code printed under it; closed."""
    link = read_qr(dialog.get_by_role("img")).text
    typed = dialog.locator(".qr-typed").inner_text()
    dialog.get_by_role("button", name="Close").click()
    return link, typed


def secret(gm: Page, label: str) -> Locator:
    return gm.locator("#secrets > li").filter(has=gm.get_by_role("heading", name=label))


def reveal_of(gm: Page, label: str) -> tuple[str, str]:
    secret(gm, label).get_by_role("button", name="Reveal").click()
    return shown(gm.get_by_role("dialog", name=f"Reveal: {label}"))


def secret_roll(player: Page) -> None:
    form = player.locator("#form-pool")
    for name, value in (("Trait", 5), ("Skill", 7), ("Bonus", 0), ("My dice", " ".join(
            map(str, DICE)))):
        fill(form, name, value)
    roll(player)
    expect(player.locator("#result .headline")).to_contain_text("Secret")


def test_a_committed_dr_is_taken_by_qr_rolled_revealed_and_verified(table):
    gm, player = table
    expect(gm.get_by_role("heading", name="The GM’s side")).to_be_visible()
    expect(player.get_by_role("main", name="The GM’s side")).to_be_hidden()
    link, typed = shown(commit(gm, "d10 pool", "4", "Lock on the vault door"))
    assert re.fullmatch(r"([0-9a-f]{4} ){5}[0-9a-f]{4}", typed)  # 96 bits in groups of 4
    assert "#commit=pool." in link and typed.replace(" ", "") in link

    player.goto(link)  # as the camera app opens it
    form = player.locator("#form-pool")
    expect(labelled(form, "Secret DR")).to_be_checked()
    code = labelled(form, "GM's code")
    expect(code).to_have_value(re.compile("^" + typed))
    secret_roll(player)
    entry = stored_log(player)["entries"][-1]
    assert entry["request"]["commitment"] == link.rsplit(".", 1)[1]  # kept with the roll

    reveal, typed_reveal = reveal_of(gm, "Lock on the vault door")
    assert typed_reveal.startswith("DR 4 · salt ")
    player.goto(reveal)
    judged = skillcheck.resolve({**POOL, "dr": 4, "dice": DICE})
    expect(player.locator("#result .headline")).to_contain_text(judged["outcome"],
                                                                ignore_case=True)
    expect(player.locator("#result")).to_contain_text("Verified")
    player.wait_for_function("() => JSON.parse(localStorage.getItem('skillcheck.log'))"
                             ".entries.some(e => e.kind === 'reveal')")
    kinds = [e["kind"] for e in stored_log(player)["entries"]]
    assert kinds == ["check", "reveal"]

    player.goto(reveal)  # opened again: shown again from the log, judged once
    expect(player.locator("#result")).to_contain_text("From the log")
    expect(player.locator("#result")).to_contain_text("commitment made before the roll: "
                                                      "verified")
    assert log_size(player) == 2

    gm.reload()  # the GM's secrets stay on the GM's phone
    wait_ready(gm)
    expect(secret(gm, "Lock on the vault door")).to_contain_text("Revealed at")


def test_a_typed_code_and_a_tampered_reveal_is_refused_beside_its_box(table):
    gm, player = table
    _, typed = shown(commit(gm, "d10 pool", "3", "Climb the wet wall"))
    form = player.locator("#form-pool")
    fill(form, "Secret DR", True)
    labelled(form, "GM's code").fill(typed)
    secret_roll(player)
    reveal, typed_reveal = reveal_of(gm, "Climb the wet wall")
    salt = typed_reveal.split("salt ", 1)[1]

    player.goto(reveal.replace("#reveal=pool.3.", "#reveal=pool.4."))  # a link edited: DR 4
    expect(player.locator("#form-error")).to_have_text(
        "This reveal's salt does not match the GM's commitment of any secret roll on this "
        "phone: nothing was judged.")
    expect(player.locator("#result .headline")).to_contain_text("Secret")
    assert log_size(player) == 1

    tools = player.locator("#reveal-form")
    tampered = ("1" if salt[0] == "0" else "0") + salt[1:]  # a salt starting "0" stays wrong
    for difficulty, given in (("4", salt), ("3", tampered)):  # the DR, then the salt
        labelled(tools, "GM: DR").fill(difficulty)
        labelled(tools, "GM: salt").fill(given)
        tools.get_by_role("button", name="GM: reveal").click()
        expect(labelled(tools, "GM: salt")).to_have_attribute("aria-invalid", "true")
        expect(tools).to_contain_text("does not match the GM's commitment", ignore_case=True)
        expect(player.locator("#result .headline")).to_contain_text("Secret")
        assert log_size(player) == 1  # nothing judged

    labelled(tools, "GM: DR").fill("3")
    labelled(tools, "GM: salt").fill(salt)
    tools.get_by_role("button", name="GM: reveal").click()
    judged = skillcheck.resolve({**POOL, "dr": 3, "dice": DICE})
    expect(player.locator("#result .headline")).to_contain_text(judged["outcome"],
                                                                ignore_case=True)
    expect(player.locator("#result")).to_contain_text("Verified")


def test_a_bad_difficulty_is_said_beside_its_box_a_double_tap_commits_once_and_clear(
        table):
    gm, _ = table
    side = gm.get_by_role("region", name="A secret difficulty")
    side.get_by_label("System").select_option(label="Card flip")
    labelled(side, "DTN").fill("impossible-ish")
    side.get_by_role("button", name="Commit").click()
    expect(labelled(side, "DTN")).to_have_attribute("aria-invalid", "true")
    expect(gm.locator("#secrets > li")).to_have_count(0)

    labelled(side, "DTN").fill("hard")
    side.get_by_role("button", name="Commit").evaluate(  # a double tap: one secret
        "button => { button.click(); button.click(); }")
    dialog = gm.get_by_role("dialog", name=re.compile("^Code: "))
    expect(dialog).to_be_visible()
    dialog.get_by_role("button", name="Close").click()
    expect(gm.locator("#secrets > li")).to_have_count(1)
    expect(gm.locator("#secrets > li")).to_contain_text("DTN 15")  # hard, as its number
    gm.locator("#secrets > li").get_by_role("button", name="Clear").click()
    gm.get_by_role("dialog").get_by_role("button", name="Clear").click()
    expect(gm.locator("#secrets > li")).to_have_count(0)


def test_the_nav_moves_between_the_sides_and_keeps_the_players_form(table):
    _, player = table
    fill(player.locator("#form-pool"), "Trait", 6)
    player.get_by_role("navigation", name="Sides of the table").get_by_role(
        "link", name="GM").click()
    expect(player.get_by_role("heading", name="The GM’s side")).to_be_focused()
    expect(player.locator("#form-pool")).to_be_hidden()
    assert player.evaluate("location.hash") == "#gm"
    expect(player.get_by_role("link", name="GM")).to_have_attribute("aria-current", "page")
    player.get_by_role("link", name="Player").click()
    expect(labelled(player.locator("#form-pool"), "Trait")).to_have_value("6")
    player.wait_for_function("() => location.hash === '#system=pool'")  # the check's own again
