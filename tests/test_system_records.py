"""The system as the unit of the house (py/app/systems/): each system id is named in at most two
app files, a record missing a piece fails at import with the system's and the piece's name, and
a fifth system is its rules module, its record and one line of the rules' registry — driven here
end to end through exactly that path (docs/adding-a-system.md)."""

from __future__ import annotations

import hashlib
import json
import re
import shutil
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest
from app import systems
from app.link_words import WORDS
from app.systems import MissingPiece, SystemPage
from skillcheck.registry import ORDER

ROOT = Path(__file__).resolve().parents[1]


def app_files() -> dict[str, str]:
    """The app's own files, outside the rules and the systems' records: its Python, the page,
    its scripts and style sheets (not the vendored runtime)."""
    paths = [*ROOT.glob("py/**/*.py"), ROOT / "index.html",
             *(path for pattern in ("static/**/*.js", "static/**/*.mjs", "static/**/*.css")
               for path in ROOT.glob(pattern))]
    return {path.relative_to(ROOT).as_posix(): path.read_text(encoding="utf-8") for path in paths
            if not path.relative_to(ROOT).as_posix().startswith(
                ("py/skillcheck/", "py/app/systems/", "static/vendor/"))}


def naming(system: str, files: dict[str, str]) -> list[str]:
    """The files that name `system`: as a quoted word, or in a chip's or form's id."""
    pattern = re.compile(rf"""["'`]{system}["'`]|pick-{system}\b|form-{system}\b""")
    return sorted(path for path, text in files.items() if pattern.search(text))


@pytest.mark.parametrize("system", ORDER)
def test_each_system_is_named_in_at_most_two_app_files(system):
    # Its record, and the version 2 links' preset dictionary: frozen bytes every shared link
    # depends on, which never changes (tested below).
    files = ["py/app/systems/" + f"{system}.py", *naming(system, app_files())]
    assert (ROOT / files[0]).is_file()
    assert files[1:] in ([], ["py/app/link_words.py"])


def test_the_count_sees_a_system_named():
    assert naming("pool", {"a.py": 'x = "pool"', "b.css": "#pick-pool { }", "c.js": "pools"}) \
        == ["a.py", "b.css"]


def test_the_link_dictionary_never_changes():
    assert hashlib.sha256(WORDS).hexdigest()[:16] == "48d6095d7e7baf18", \
        "a new dictionary is a new link version (py/app/links.py)"


def test_the_records_follow_the_rules_registry():
    assert list(systems.PAGES) == list(ORDER)
    assert ORDER[0] == systems.FIRST


@pytest.mark.parametrize(("change", "piece"), [
    ({"outcomes": {}}, "outcomes"),
    ({"said": {}}, "said"),
    ({"icon": " "}, "icon"),
    ({"drawn_with": None}, "drawn_with"),
    ({"drawn_with": "d20"}, "drawn_with"),
    ({"reveal": None}, "reveal"),
    ({"sheet": None}, "sheet"),
    ({"deciding": ("IoS",)}, "deciding"),
    ({"deciding": ("IoS {ios:+d}",)}, "deciding"),
    ({"deciding": ("IoS {ios",)}, "deciding"),
    ({"adjust": {"": ("dr", "seed")}}, "adjust"),
    ({"adjust": {"unopposed": ("dr",)}}, "adjust"),
    ({"gm_sets": systems.Reveal("DR", "", "seed")}, "gm_sets"),
    ({"gm_sets": systems.Reveal("DR", "", "dr", by_word=True)}, "gm_sets"),
])
def test_a_record_missing_a_piece_fails_naming_the_system_and_the_piece(change, piece):
    with pytest.raises(MissingPiece, match=rf"'pool' system's page record .*: {piece} ") as said:
        replace(systems.PAGES["pool"], **change)
    assert (said.value.system, said.value.piece) == ("pool", piece)


def test_a_form_is_needed_for_each_mode():
    with pytest.raises(MissingPiece, match="form needs a form for each mode: team"):
        replace(systems.PAGES["flip"], form=systems.PAGES["flip"].form.replace(
            'data-mode="team"', 'data-mode="gone"'))


def test_a_record_for_no_rules_and_rules_without_a_record_fail_loudly():
    with pytest.raises(MissingPiece, match="'chess' system's .*: id names no system"):
        SystemPage(id="chess", icon="x", outcomes={}, said={}, fill=lambda *_: None,
                   gm_sets=None)
    with pytest.raises(MissingPiece, match="'chess' system's .*: record is missing"):
        systems._record("chess")


# ---- a fifth system, added as docs/adding-a-system.md says ---------------------------------------

RULES = '''"""A toy roll-under d10 (tests/test_system_records.py): at or under succeeds."""

from __future__ import annotations

from fractions import Fraction

from .draw import Draw
from .request import Form, Whole, no_secret
from .system import System, odds_from

TARGET = Whole("target", "Target", 1, 10)


def resolve(request: dict, draw: Draw) -> dict:
    no_secret(request)
    target = TARGET.read(request)
    dice = draw.dice(1, 10, request.get("dice"), "dice")
    outcome = "success" if dice[0] <= target else "failure"
    return {"system": "under", "outcome": outcome, "success": outcome == "success",
            "dice": dice, "roll": dice[0], "target": target,
            "explain": [f"Rolled {dice[0]} against {target}: {outcome}."],
            "request": {"system": "under", "target": target, "dice": dice}}


def odds(request: dict) -> dict:
    no_secret(request)
    target = TARGET.read(request)
    chances = {"success": Fraction(target, 10), "failure": Fraction(10 - target, 10)}
    return odds_from({name: p for name, p in chances.items() if p}, ("success",))


SYSTEM = System(name="under", label="Roll under", seed="toy", button="Roll",
                outcomes=("success", "failure"), winners=("success",), resolve=resolve,
                odds=odds, fields=(TARGET.shown("roll at or under it", 6, label="Target"),),
                draw=Form("dice", "one value 1–10"))
'''

RECORD = '''"""The toy roll-under d10 on the page: its chip, outcome words and sheet."""

from __future__ import annotations

from skillcheck.registry import REGISTRY

from ..editor_boxes import NAME, Group, number
from ..sheet_fields import named
from ..sheet_fields import number as numbers
from .record import Sheet, SystemPage

TARGET = REGISTRY["under"].spec("target")


def read_sheet(value: dict, field: str) -> dict:
    return {"skills": named(value.get("skills"), f"{field}.skills", numbers(TARGET))}


def fill(character: dict, sheet: dict, name: str) -> dict | None:
    target = sheet.get("skills", {}).get(name)
    return None if target is None else {"target": target}


PAGE = SystemPage(
    id="under",
    icon='<circle cx="13" cy="13" r="9"/>',
    outcomes={"success": ("Made it", "The roll is at or under the target."),
              "failure": ("Missed", "The roll is over the target.")},
    said={"target": "Target {}"},
    sheet=Sheet("under", "roll-under sheet", "Roll-under sheet: skill targets", read_sheet, (
        Group("skills", "Skills", "target", "skill", (
            NAME, number("target", "Target", "roll at or under it", TARGET))),)),
    fill=fill,
    gm_sets=None,
    drawn_with="d10",
)
'''

DRIVE = '''
import json
import sys
from html.parser import HTMLParser

import skillcheck
from app import character_form, characters, log_html, result_html, systems
from app.log_model import RollLog
from app.storage import MemoryStorage
from tools.page_macros import expand, systems_css

page = expand(open(sys.argv[1], encoding="utf-8").read())


class Controls(HTMLParser):
    def __init__(self):
        super().__init__()
        self.found = {}

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if "id" in attrs:
            self.found[attrs["id"]] = (tag, attrs)


controls = Controls()
controls.feed(page)
storage = MemoryStorage()
result = skillcheck.resolve({"system": "under", "target": 6, "dice": [4]})
entry, _ = RollLog(storage).record_check(result)
mara, _ = characters.Roster(storage).create(
    "Mara", sheets={"under": {"skills": {"Climb": 7}}})
odds = skillcheck.odds({"system": "under", "target": 6})
print(json.dumps({
    "order": list(systems.PAGES),
    "chip": controls.found.get("pick-under"),
    "target": controls.found.get("under-target"),
    "editor": controls.found.get("ce-under_skills-0-target"),
    "shown": "#form-under" in systems_css(),
    "result": result_html.result_html(result),
    "odds": result_html.odds_html(odds, skillcheck.SYSTEMS["under"]),
    "summary": entry["summary"],
    "logged": log_html.entry_html(entry, str),
    "filled": characters.fill(mara, "under", "Climb"),
    "picks": character_form.pick_options(mara, "under"),
}))
'''


def test_a_fifth_system_is_two_files_and_one_line(tmp_path):
    tree = tmp_path / "house"
    shutil.copytree(ROOT / "py", tree / "py", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copytree(ROOT / "tools", tree / "tools", ignore=shutil.ignore_patterns(
        "__pycache__", "node_modules", "snapshot", "chromium", "bytecode", "stdlib"))
    shutil.copy(ROOT / "index.html", tree / "index.html")
    (tree / "py/skillcheck/under.py").write_text(RULES, encoding="utf-8")
    (tree / "py/app/systems/under.py").write_text(RECORD, encoding="utf-8")
    registry = tree / "py/skillcheck/registry.py"
    text = registry.read_text(encoding="utf-8")
    registry.write_text(text.replace('    "passages",\n', '    "passages",\n    "under",\n'),
                        encoding="utf-8")
    assert registry.read_text(encoding="utf-8").count("\n") == text.count("\n") + 1

    run = subprocess.run([sys.executable, "-c", DRIVE, str(tree / "index.html")], cwd=tree,
                         env={"PYTHONPATH": f"{tree / 'py'}:{tree}"}, capture_output=True,
                         text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    seen = json.loads(run.stdout)
    assert seen["order"][-1] == "under"
    assert seen["chip"][1]["value"] == "under"  # the picker offers it
    tag, box = seen["target"]  # its form, from its field specs
    assert (tag, box["name"], box["min"], box["max"], box["value"]) == \
        ("input", "target", "1", "10", "6")
    assert seen["editor"][1]["max"] == "10"  # its sheet in the character editor
    assert seen["shown"]
    assert "Made it" in seen["result"] and 'data-system="under"' in seen["result"]
    assert "d10" in seen["result"]  # drawn as its record says
    assert "Made it" in seen["odds"] and "60" in seen["odds"]
    assert seen["summary"] == "Target 6"
    assert "Made it" in seen["logged"] and "Roll under" in seen["logged"]  # its log entry
    assert seen["filled"] == {"target": 7}
    assert seen["picks"] == [["Climb", "Climb"]]
