"""The pure parts of the table features: the character editor's rows ↔ a character, a pick ↔ the
check form, the log's lines, a secret check's announcement and reveal, and its odds chart."""

from __future__ import annotations

import re
from fractions import Fraction

import pytest
import skillcheck
from app import character_form, characters, forms, log_html, result_html, result_notes_html
from app.log_model import RollLog, reveal_request
from app.storage import FieldError, MemoryStorage

# --- the editor: rows of a form ↔ a character's maps ------------------------------------------

EDITOR = [  # (control name, kind, raw) as page.controls reads the editor
    ("name", "text", " Mara "), ("notes", "textarea", "Likes <b>boats</b>"),
    ("luck", "number", "3"), ("xp", "number", ""),
    ("aspects.HS", "number", "4"), ("aspects.AI", "number", ""),
    ("flip_skills.0.skill", "select-one", "Athletics"), ("flip_skills.0.type", "text", ""),
    ("flip_skills.0.rank", "number", "3"), ("flip_skills.0.specialization", "text", "Climbing"),
    ("flip_skills.0.familiarity", "checkbox", False),
    ("flip_skills.1.skill", "select-one", ""), ("flip_skills.1.type", "text", ""),
    ("flip_skills.1.rank", "number", ""), ("flip_skills.1.familiarity", "checkbox", False),
    ("flip_skills.2.skill", "select-one", "Knowledge"),
    ("flip_skills.2.type", "text", "History"), ("flip_skills.2.rank", "number", "0"),
    ("flip_skills.2.familiarity", "checkbox", True),
    ("pool_traits.0.name", "text", "Dexterity"), ("pool_traits.0.score", "number", "5"),
    ("pool_skills.0.name", "text", "Lockpicking"), ("pool_skills.0.trait", "text", "Dexterity"),
    ("pool_skills.0.score", "number", "7"), ("pool_skills.0.bonus", "number", ""),
    ("fluke_stats.0.name", "text", "Brains"), ("fluke_stats.0.dice", "number", "2"),
    ("passages_skills.0.name", "text", "Sneak"), ("passages_skills.0.base", "number", "26"),
]


def test_editor_rows_become_a_character_and_come_back_the_same():
    fields, where = character_form.character_fields(forms.tree_from(EDITOR))
    roster = characters.Roster(MemoryStorage())
    character, _ = roster.create(fields.pop("name"), **fields)
    assert character["name"] == "Mara" and character["luck"] == 3 and character["xp"] == 0
    assert character["sheets"] == {
        "flip": {"aspects": {"HS": 4},
                 "skills": {"Athletics": {"rank": 3, "specialization": "Climbing",
                                          "familiarity": False},
                            "Knowledge: History": {"rank": 0, "specialization": "",
                                                   "familiarity": True}}},
        "pool": {"traits": {"Dexterity": 5},
                 "skills": {"Lockpicking": {"trait": "Dexterity", "score": 7, "bonus": 0}}},
        "fluke": {"stats": {"Brains": 2}, "skills": {}},
        "passages": {"skills": {"Sneak": 26}}}
    assert where["sheets.flip.skills.Knowledge: History"] == "flip_skills.2"  # the empty row 1

    rows, values = character_form.editor_values(character)
    assert rows == {"flip_skills": 2, "pool_traits": 1, "pool_skills": 1, "fluke_stats": 1,
                    "fluke_skills": 0, "passages_skills": 1}
    again = [(name, kind, values.get(_renumbered(name), "")) for name, kind, _ in EDITOR
             if _renumbered(name) is not None]
    assert character_form.character_fields(forms.tree_from(again))[0] == {
        **fields, "name": "Mara"}


def _renumbered(name: str) -> str | None:
    """The editor drops the empty row 1 of flip skills: row 2 comes back as row 1."""
    if name.startswith("flip_skills.1."):
        return None
    return name.replace("flip_skills.2.", "flip_skills.1.")


@pytest.mark.parametrize(("controls", "field", "words"), [
    ([("pool_traits.0.score", "number", "5")], "pool_traits.0.name", "needs a name"),
    ([("flip_skills.0.rank", "number", "2")], "flip_skills.0.skill", "needs a name"),
    ([("fluke_skills.0.name", "text", "Run"), ("fluke_skills.0.dice", "number", "2"),
      ("fluke_skills.1.name", "text", "Run"), ("fluke_skills.1.dice", "number", "3")],
     "fluke_skills.1.name", "Run is listed twice"),
])
def test_a_row_without_a_name_or_named_twice_is_refused_at_its_name(controls, field, words):
    with pytest.raises(FieldError) as caught:
        character_form.character_fields(forms.tree_from([("name", "text", "X"), *controls]))
    assert caught.value.field == field and words in caught.value.reason


@pytest.mark.parametrize(("controls", "control"), [
    ([("flip_skills.0.skill", "select-one", "Athletics"), ("flip_skills.0.rank", "number", "70")],
     "flip_skills.0.rank"),
    ([("flip_skills.0.skill", "select-one", "Athletics"), ("flip_skills.0.type", "text", "Oak"),
      ("flip_skills.0.rank", "number", "1")], "flip_skills.0.skill"),
    ([("pool_traits.0.name", "text", "Dex"), ("pool_traits.0.score", "number", "11")],
     "pool_traits.0.score"),
    ([("pool_skills.0.name", "text", "Pick"), ("pool_skills.0.trait", "text", "Nope"),
      ("pool_skills.0.score", "number", "5")], "pool_skills.0.trait"),
    ([("aspects.SS", "number", "99")], "aspects.SS"),
    ([("passages_skills.0.name", "text", "Sneak"), ("passages_skills.0.base", "number", "0")],
     "passages_skills.0.base"),
    ([("luck", "number", "-1")], "luck"),
])
def test_a_rules_error_lands_beside_the_editor_box_it_is_about(controls, control):
    fields, where = character_form.character_fields(forms.tree_from([("name", "text", "X"),
                                                                 *controls]))
    with pytest.raises(FieldError) as caught:
        characters.read_character({"id": 1, **fields})
    assert character_form.control_for(caught.value.field, where) == control


def test_a_new_character_starts_blank():
    rows, values = character_form.editor_values(None)
    assert set(rows.values()) == {0}
    assert values["luck"] == 0 and values["name"] == "" and values["aspects.PC"] == ""


def test_a_conflict_names_each_field_as_the_editor_does_and_what_the_other_tab_saved():
    fields = ["xp", "notes", "sheets.pool"]
    assert character_form.conflict_text("Mara", fields) == (
        "Mara was also changed in another tab while you edited: XP, Notes, d10 pool sheet. "
        "Nothing is saved yet. Save again to keep what you typed, or use the other tab’s where "
        "it is marked.")
    assert character_form.theirs_text("xp", 1200) == "Another tab saved 1,200."
    assert character_form.theirs_text("notes", "") == "Another tab saved no notes."
    long = character_form.theirs_text("notes", "x" * 500)
    assert long.endswith("…”.") and len(long) < 160
    assert character_form.theirs_text("sheets.flip", {}) == (
        "Another tab saved other changes to this sheet.")
    assert character_form.sheet_group("sheets.pool") == "pool_traits"
    assert character_form.merged_words("sheets.passages") == "Passages sheet"


# --- a pick → the check form ------------------------------------------------------------------

MARA = characters.read_character({
    "id": 1, "name": "Mara", "luck": 150, "xp": 9,
    "sheets": {"flip": {"aspects": {"HS": 4, "AI": 2},
                        "skills": {"Athletics": {"rank": 3}, "Knowledge: History": {
                            "rank": 0, "familiarity": True}}},
               "pool": {"traits": {"Dex": 5}, "skills": {"Pick": {"trait": "Dex", "score": 7}}},
               "fluke": {"stats": {"Run": 2}, "skills": {"Run": 4, "Hide": 3}}}})


@pytest.mark.parametrize(("system", "mode", "name", "shown", "values"), [
    ("flip", "unopposed", "Athletics", "unopposed",
     {"skill": "Athletics", "rank": 3, "aspect": 4, "advanced": False, "familiarity": False,
      "specialization": False}),
    ("flip", "aspect", "Knowledge: History", "unopposed",
     {"skill": "Knowledge", "rank": 0, "aspect": 2, "advanced": True, "familiarity": True,
      "specialization": False}),
    ("flip", "opposed", "Athletics", "opposed",
     {"initiator.skill": "Athletics", "initiator.rank": 3, "initiator.aspect": 4,
      "initiator.advanced": False, "initiator.familiarity": False,
      "initiator.specialization": False}),
    ("flip", "team", "HS", "aspect", {"aspect": 4}),
    ("pool", None, "Pick", None, {"trait": 5, "skill": 7, "bonus": 0, "luck": 100}),
    ("swift", None, "Pick", None, {"trait": 5, "skill": 7, "bonus": 0, "luck": 100}),
    ("fluke", None, "Run", None, {"dice_count": 4}),
])
def test_a_pick_fills_the_controls_of_the_form_it_belongs_to(system, mode, name, shown, values):
    fields = characters.fill(MARA, system, name)
    assert character_form.form_values(system, mode, name, fields) == (shown, values)


def test_an_opposed_pick_fills_the_side_chosen_and_a_specialization_its_listed_name():
    fields = characters.fill(MARA, "flip", "Athletics")
    _, values = character_form.form_values("flip", "opposed", "Athletics", fields, "opponent",
                                           "climbing")
    assert values["opponent.rank"] == 3 and values["opponent.specialization"] == "Climbing"
    assert character_form.as_request(values)["opponent.specialization"] is True
    _, values = character_form.form_values("flip", "team", "Athletics", fields, "opponent",
                                           "Ladders")  # no choice of side in a team flip
    assert values["primary.specialization"] == "other"  # not in the rulebook's list
    knowledge = characters.fill(MARA, "flip", "Knowledge: History")
    _, values = character_form.form_values("flip", "unopposed", "Knowledge: History",
                                           knowledge, "", "Dynasties")
    assert values["specialization"] == "yes"  # Knowledge lists none


def test_a_specialization_is_said_only_where_the_pick_chose_it():
    athletics = characters.fill(MARA, "flip", "Athletics")
    _, values = character_form.form_values("flip", "unopposed", "Athletics", athletics, "",
                                           "climbing")
    assert character_form.chose_specialization(values)
    _, values = character_form.form_values("flip", "unopposed", "Athletics", athletics)
    assert not character_form.chose_specialization(values)  # the sheet holds none
    aspect = characters.fill(MARA, "flip", "HS")
    _, values = character_form.form_values("flip", "aspect", "HS", aspect, "", "climbing")
    assert not character_form.chose_specialization(values)  # an aspect check takes none


def test_the_bar_speaks_of_a_difficulty_only_where_there_is_one():
    said = character_form.pick_said(MARA, "Athletics", "flip", "opposed", "initiator")
    assert said == ("Mara: Athletics is in the form, on the initiator’s side. Fill in the "
                    "opponent’s side.")
    said = character_form.pick_said(MARA, "Athletics", "flip", "unopposed", "", "Climbing")
    assert "Specialization: Climbing (flip+1)" in said and "GM sets the difficulty" in said
    said = character_form.pick_said(MARA, "Athletics", "flip", "unopposed", gm_set=True)
    assert said == ("Mara: Athletics is in the form. The difficulty is the one the GM set on "
                    "the party table.")


def test_an_aspect_is_said_by_the_name_the_rules_give_it():
    said = character_form.pick_said(MARA, "HS", "flip", "aspect")
    assert said.startswith("Mara: Hard Strength is in the form.")
    boxes = {box.key: box.label for box in character_form.FIXED["aspects"][1].boxes}
    assert boxes["AI"] == "Acquired Intellect" and boxes["MC"] == "MC"  # the text spells out 4


def test_the_sheet_lists_skills_then_aspects_and_stats_each_once():
    assert character_form.pick_options(MARA, "flip") == [
        ("Athletics", "Athletics"), ("Knowledge: History", "Knowledge: History"),
        ("HS", "Hard Strength (aspect)"), ("AI", "Acquired Intellect (aspect)")]
    assert character_form.pick_options(MARA, "fluke") == [("Run", "Run"), ("Hide", "Hide")]
    assert character_form.pick_options(MARA, "passages") == []


# --- the log's lines --------------------------------------------------------------------------

def when(iso: str) -> str:
    return "at " + iso


def test_each_entry_is_one_escaped_line_and_spends_are_notes():
    log = RollLog(MemoryStorage())
    result = skillcheck.resolve({"system": "flip", "mode": "opposed",
                                 "initiator": {"rank": 2, "aspect": 3, "cards": ["QS", "3H"]},
                                 "opponent": {"rank": 1, "aspect": 4, "cards": ["JD"]}})
    entry, _ = log.record_check(result, summary="<script>x</script>")
    line = log_html.entry_html(entry, when)
    assert f'data-entry="{entry["id"]}"' in line and "<script>" not in line
    assert "&lt;script&gt;x&lt;/script&gt;" in line
    assert "Initiator QS 3H · Opponent JD" in line and "Card flip" in line
    assert f"at {entry['time']}" in line
    tone = "good" if result["success"] else "bad"
    outcome = result_html.sentence_case(result["outcome"])
    assert f'class="log-outcome {tone}">{outcome} wins<' in line

    spend = {"character": 1, "name": "<b>Bo</b>", "system": "pool", "resource": "luck",
             "amount": 1, "before": 2, "after": 1, "text": "<b>Bo</b> spent 1 Luck."}
    note, _ = log.record_spend(spend, entry["id"])
    html = log_html.entry_html(note, when)
    assert html.startswith('<li class="log-row"><p class="log-note" data-kind="spend">')
    assert "data-entry" not in html and "&lt;b&gt;Bo&lt;/b&gt; spent 1 Luck." in html


def test_an_entry_names_who_rolled_what_marks_the_one_shown_and_can_be_deleted():
    log = RollLog(MemoryStorage())
    result = skillcheck.resolve({"system": "pool", "trait": 5, "skill": 7, "dr": 3, "luck": 3,
                                 "dice": [8, 8, 9, 1, 2]})
    entry, _ = log.record_check(result, who={"name": "<i>Mara</i>", "skill": "Stealth"})
    line = log_html.entry_html(entry, when)
    assert "&lt;i&gt;Mara&lt;/i&gt; · Stealth (d10 pool)" in line and "<i>" not in line
    assert "8 8 9 1 2" in line and "Luck 3 offered (1 spent)" in line
    assert "aria-current" not in line
    assert 'aria-current="true"' in log_html.entry_html(entry, when, shown=entry["id"])
    assert f'data-delete="{entry["id"]}"' in line
    assert ('aria-label="Delete this entry (&lt;i&gt;Mara&lt;/i&gt; · Stealth (d10 pool), '
            f'at {entry["time"]})"') in line


@pytest.mark.parametrize(("shown", "total", "system", "text"), [
    (0, 0, None, "Nothing rolled yet."), (0, 0, "pool", "No d10 pool entries yet."),
    (1, 1, None, "1 entry."), (50, 4000, None, "Showing the newest 50 of 4,000 entries."),
    (3, 3, "passages", "3 Passages entries."),
])
def test_the_count_says_how_much_is_shown(shown, total, system, text):
    assert log_html.count_text(shown, total, system) == text


def test_the_count_says_when_a_search_or_a_character_narrows_the_list():
    assert log_html.count_text(2, 2, "pool", narrowed=True) == "2 matching d10 pool entries."
    assert log_html.count_text(0, 0, None, narrowed=True) == "No entries match."


def test_a_check_drawn_under_a_seed_records_it_and_shows_a_mark():
    store = MemoryStorage()
    log = RollLog(store)
    result = skillcheck.resolve({"system": "passages", "base": 50, "dice": [12]})
    seeded, _ = log.record_check(result, seed=42)
    plain, _ = log.record_check(result)
    assert seeded["seed"] == 42 and "seed" not in plain
    assert RollLog(store).get(seeded["id"])["seed"] == 42  # kept across a reload
    html = log_html.entry_html(seeded, str)
    assert 'class="log-seed"' in html and "Seed 42 — not random" in html
    assert "log-seed" not in log_html.entry_html(plain, str)
    assert forms.seeded_text(42) == "Repeatable draws: seed 42 — not random"


def test_a_dice_draw_is_its_faces():
    assert log_html.draw_text({"system": "pool", "dice": [3, 10, 2]}) == "3 10 2"
    assert log_html.draw_text({"system": "passages", "base": 40}) == ""


# --- secret checks --------------------------------------------------------------------------

SECRET_FLIP = skillcheck.resolve({"system": "flip", "rank": 2, "aspect": 3, "secret": True,
                                  "cards": ["JC", "10S"]})
SECRET_POOL = skillcheck.resolve({"system": "pool", "trait": 5, "skill": 7, "secret": True,
                                  "dice": [8, 8, 9, 1, 2]})


def test_a_secret_check_announces_its_total_or_successes():
    assert result_notes_html.is_secret(SECRET_FLIP) and not result_notes_html.is_secret(None)
    assert re.search(r'data-announce="total"><span>Total</span> <strong>14</strong>',
                     result_notes_html.announce_html(SECRET_FLIP))
    assert "<strong>2</strong>" in result_notes_html.announce_html(SECRET_POOL)


FLIP_OPEN = {"system": "flip", "rank": 2, "aspect": 3, "cards": ["JC", "10S"]}
POOL_OPEN = {"system": "pool", "trait": 5, "skill": 7, "dice": [8, 8, 9, 1, 2]}


@pytest.mark.parametrize(("result", "typed", "difficulty", "open_check"), [
    (SECRET_FLIP, " 15 ", {"dtn": 15}, {**FLIP_OPEN, "dtn": 15}),
    (SECRET_FLIP, "Very  Easy", {"difficulty": "very easy"},
     {**FLIP_OPEN, "difficulty": "very easy"}),
    (SECRET_POOL, "2", {"dr": 2}, {**POOL_OPEN, "dr": 2}),
    (SECRET_POOL, "two", {"dr": "two"}, None),
])
def test_the_gms_difficulty_judges_the_same_draw(result, typed, difficulty, open_check):
    """The reveal is the check the GM would have made openly, on the same cards or dice."""
    assert result_notes_html.reveal_difficulty(result["system"], typed) == difficulty
    request = reveal_request(result, difficulty)
    if open_check is None:
        with pytest.raises(skillcheck.InvalidRequest) as caught:
            skillcheck.resolve(request)
        assert caught.value.field == "dr"
        return
    revealed, expected = skillcheck.resolve(request), skillcheck.resolve(open_check)
    assert revealed.pop("request")["secret"] and expected.pop("request")
    assert revealed == expected and revealed["outcome"] != "secret"


def test_an_empty_reveal_is_refused_with_what_it_takes():
    with pytest.raises(FieldError) as caught:
        result_notes_html.reveal_difficulty("flip", "  ")
    assert caught.value.field == "reveal" and "like 15" in caught.value.reason
    assert result_notes_html.revealed_note({"dtn": 15}) == (
        "Revealed by the GM: DTN 15, judged on the same draw.")


def test_a_roll_shown_again_says_where_it_came_from_escaped():
    link = result_notes_html.source_html("link", "<i>29 Nov</i>")
    assert "Replay of a roll from &lt;i&gt;29 Nov&lt;/i&gt;" in link
    assert "does not prove the roll was not edited" in link
    assert "From the log: a roll from" in result_notes_html.source_html("log", "now")


def test_a_replay_lists_its_inputs_read_only_and_offers_to_roll_them_escaped():
    link = result_notes_html.source_html("link", "now", [("Helper 1 · Rank", "3"), ("<b>", "<i>")])
    assert "<dt>Helper 1 · Rank</dt><dd>3</dd>" in link
    assert "<dt>&lt;b&gt;</dt><dd>&lt;i&gt;</dd>" in link
    assert 'data-roll-myself>Roll this check myself</button>' in link
    assert "<input" not in link  # shown, not editable
    assert "Roll this check myself" not in result_notes_html.source_html("log", "now")


@pytest.mark.parametrize("request_", [
    {"system": "flip", "rank": 2, "aspect": 3, "secret": True},
    {"system": "flip", "mode": "aspect", "aspect": 6, "secret": True},
    {"system": "pool", "trait": 5, "skill": 7, "secret": True},
])
def test_a_secret_checks_odds_are_a_chart_of_every_total(request_):
    odds = skillcheck.odds(request_)
    shown = result_html.odds_html(odds, skillcheck.SYSTEMS[request_["system"]])
    bars = dict(re.findall(r'data-total="(-?\d+)" data-fraction="([^"]+)"', shown))
    assert bars == {str(k): str(v) for k, v in odds["totals"].items()}
    assert sum(map(Fraction, bars.values())) == 1
    assert "odds-row" not in shown  # no "secret: 100 %" row
    word = "number of successes" if request_["system"] == "pool" else "total"
    assert f'aria-label="Chance of each {word}"' in shown
    heights = [float(h) for h in re.findall(r'<rect y="[\d.]+" width="1" height="([\d.]+)"', shown)]
    assert max(heights) == 100.0 and len(heights) == len(bars)


# --- the line shared to a chat --------------------------------------------------------------

@pytest.mark.parametrize(("request_", "who", "line"), [
    ({"system": "pool", "trait": 5, "skill": 7, "dr": 2, "dice": [6, 3, 7, 1, 2]},
     {"name": "Mara", "skill": "Stealth"},
     "Mara · Stealth (d10 pool): Critical Success (IoS 4) — 6 3 7 1 2 — LINK"),
    # The rulebook gives IoS 2 no name: the page calls it by its IoS, once.
    ({"system": "pool", "trait": 5, "skill": 7, "dr": 2, "dice": [6, 3, 7, 9, 9]}, None,
     "d10 pool: Success (IoS 2) — 6 3 7 9 9 — LINK"),
    ({"system": "flip", "rank": 2, "aspect": 3, "dtn": 12, "cards": ["JC", "10S"]}, None,
     "Card flip: Success (total 14 vs DTN 12) — JC 10S — LINK"),
    ({"system": "fluke", "dice_count": 3, "dice": [6, 4, 5]}, {"name": "Dot"},
     "Dot (d6 pool): Success (total 15 vs 10) — 6 4 5 — LINK"),
    ({"system": "flip", "mode": "opposed", "initiator": {"rank": 1, "aspect": 1, "cards": ["2C"]},
      "opponent": {"rank": 1, "aspect": 1, "cards": ["3C"]}}, None,
     "Card flip, opposed: Opponent wins (3 to 4) — Initiator 2C · Opponent 3C — LINK"),
    ({"system": "pool", "trait": 5, "skill": 7, "secret": True, "dice": [6, 3, 7, 1, 2]}, None,
     "d10 pool: Secret (Successes 5) — 6 3 7 1 2 — LINK"),
    ({"system": "passages", "base": 40, "practice": True}, None, "Passages: Skills Success — LINK"),
])
def test_a_roll_shared_to_a_chat_is_one_line_with_its_link_last(request_, who, line):
    result = skillcheck.resolve(request_)
    assert result_notes_html.share_text(result, "LINK", who) == line


def test_a_seeded_roll_is_marked_on_its_card_and_in_its_chat_line():
    result = skillcheck.resolve({"system": "fluke", "dice_count": 3, "dice": [6, 4, 5]})
    line = result_notes_html.share_text(result, "LINK", {"name": "Dot"}, seeded=True)
    assert line == "[Seeded — not random] Dot (d6 pool): Success (total 15 vs 10) — 6 4 5 — LINK"
    assert "Seeded" not in result_notes_html.share_text(result, "LINK")
    card = result_html.result_html(result, seeded=True)
    assert '<p class="seeded">Seeded — not random</p>' in card
    assert "Seeded" not in result_html.result_html(result)


def test_only_an_opposed_flip_lets_the_player_choose_the_side_a_pick_fills():
    assert character_form.sides_offered("flip", "opposed") == ("initiator", "opponent")
    for system, mode in (("flip", "team"), ("flip", "unopposed"), ("pool", None)):
        assert character_form.sides_offered(system, mode) == ()
        assert character_form.side_for(system, mode, "opponent") != "opponent"


@pytest.mark.parametrize("request_", [
    {"system": "pool", "trait": 5, "skill": 5, "dr": 2, "bonus": 6, "dice": [6, 6, 6, 1, 9]},
    {"system": "swift", "trait": 5, "skill": 5, "bonus": 4, "dice": [6, 6]},
])
def test_an_entry_logged_under_the_old_degree_ruling_says_both_outcomes(request_):
    """Before 2026-12-02 a roll that needed points to meet its difficulty was Barely, however
    far the points lifted it; the log keeps that and says what today's rules make of it."""
    log = RollLog(MemoryStorage())
    result = skillcheck.resolve(request_)
    assert result["outcome"] == "critical"
    old, _ = log.record_check({**result, "outcome": "barely"})  # as the old ruling stored it
    line = log_html.entry_html(old, when)
    assert (">logged as Barely Succeeding; Critical Success under the current rules<") in line
    assert log.entries()[0]["outcome"] == "barely"  # the stored entry is not rewritten
    today, _ = log.record_check(result)
    assert "under the current rules" not in log_html.entry_html(today, when)
