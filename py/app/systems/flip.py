"""The card flip on the page (seed 000; rules in py/skillcheck/flip/): its chip, outcome words,
the sheet of aspects and skills, what a pick fills, its secret DTN, and its four forms.
"""

from __future__ import annotations

from skillcheck.registry import REGISTRY
from skillcheck.skills import ASPECT_NAMES, ASPECTS, BY_NAME

from ..editor_boxes import Box, Fixed, Group, number, text
from ..sheet_fields import LONGEST_NAME, fields_of, flag, named, spelled_as, within
from ..storage import FieldError, text_field
from .record import Pick, Reveal, Sheet, SystemPage

ASPECT = REGISTRY["flip"].spec("aspect")
RANK = REGISTRY["flip"].spec("rank")
SKILL_NAME = spelled_as(BY_NAME)
ASPECT_NAME = spelled_as(ASPECTS)


def skill_name(name: str) -> str:
    """A flip-sheet skill name with its skill spelled as the list does: "knowledge: History" →
    "Knowledge: History" (the type is the player's own word)."""
    base, colon, kind = name.partition(":")
    return f"{SKILL_NAME(base.strip())}: {kind.strip()}".rstrip() if colon else SKILL_NAME(name)


def seed_skill(name: str):
    """The seed's skill a flip-sheet skill name stands for: "Athletics", or "Knowledge: History"
    for the skills that vary by type; None when the name is neither."""
    base, colon, kind = name.partition(":")
    skill = BY_NAME.get(base.strip() if colon else name)
    if skill is None or skill.by_type != bool(colon) or (colon and not kind.strip()):
        return None
    return skill


def _aspect(value: object, field: str, name: str) -> int:
    if name not in ASPECTS:
        raise FieldError(field, "is not an aspect: they are " + " ".join(ASPECTS))
    return within(ASPECT, value, field)


def _skill(value: object, field: str, name: str) -> dict:
    skill = seed_skill(name)
    if skill is None:
        raise FieldError(field, "must be a skill of the list (Craft, Knowledge and Profession "
                         "with their type, as in “Knowledge: History”)")
    value = fields_of(value, field)
    familiarity = flag(value.get("familiarity"), f"{field}.familiarity")
    if familiarity and not skill.by_type:
        # "Craft, Knowledge, and Profession skills can have Familiarities."
        raise FieldError(f"{field}.familiarity", "only Craft, Knowledge and Profession have one")
    specialization = value.get("specialization") or ""
    return {"rank": within(RANK, value.get("rank"), f"{field}.rank"),
            "specialization": text_field(specialization, f"{field}.specialization",
                                         LONGEST_NAME).strip(),
            "familiarity": familiarity}


def read_sheet(value: dict, field: str) -> dict:
    return {"aspects": named(value.get("aspects"), f"{field}.aspects", _aspect, ASPECT_NAME),
            "skills": named(value.get("skills"), f"{field}.skills", _skill, skill_name)}


def fill(character: dict, sheet: dict, name: str) -> dict | None:
    """A skill: rank, aspect (when the sheet has its value), advanced, familiarity and
    specialization=False (the GM says whether it applies); an aspect: mode="aspect" and it."""
    if name in sheet.get("aspects", {}):
        return {"mode": "aspect", "aspect": sheet["aspects"][name]}
    entry = sheet.get("skills", {}).get(name)
    return None if entry is None else _skill_fields(sheet, name, entry)


def unskilled(character: dict, sheet: dict, name: str) -> dict | None:
    """A Basic skill the sheet lacks, tried unskilled: "0 — Unskilled (for Basic Skills) ...
    A character can try it" at rank 0 (two cards, keeping the low), with the skill's aspect.
    None for an Advanced skill, which needs a Familiarity the sheet would list."""
    skill = seed_skill(name)
    if skill is None or skill.advanced or name in sheet.get("skills", {}):
        return None
    return _skill_fields(sheet, name, {"rank": 0, "familiarity": False})


def _skill_fields(sheet: dict, name: str, entry: dict) -> dict:
    skill = seed_skill(name)
    fields = {"rank": entry["rank"], "advanced": skill.advanced,
              "familiarity": entry["familiarity"], "specialization": False}
    if skill.aspect in sheet.get("aspects", {}):
        fields["aspect"] = sheet["aspects"][skill.aspect]
    return fields


def _row_name(row: dict) -> str | None:
    """"Knowledge" + type "History" → "Knowledge: History"; None when no skill is chosen."""
    skill, kind = row.get("skill"), row.get("type")
    if not skill:
        return None
    return f"{skill}: {kind}" if kind else str(skill)


def _row_value(row: dict) -> dict:
    return {"rank": row.get("rank"), "specialization": row.get("specialization") or "",
            "familiarity": bool(row.get("familiarity"))}


def _row_controls(name: str, value: dict) -> dict:
    skill, _, kind = name.partition(":")
    return {"skill": skill.strip(), "type": kind.strip(), **value}


SHEET = Sheet("flip", "card flip sheet", "Card flip sheet: aspects and skills", read_sheet, (
    Fixed("aspects", "Aspects", tuple(number(code, ASPECT_NAMES.get(code, code),
                                             code if code in ASPECT_NAMES else "", ASPECT)
                                      for code in ASPECTS)),
    Group("skills", "Skills", None, "skill", (
        Box("skill", "Skill", kind="skill", wide=True),
        text("type", "Type", "Craft, Knowledge, Profession: which one"),
        number("rank", "Rank", "cards to flip", RANK),
        text("specialization", "Specialization", wide=True),
        Box("familiarity", "Familiarity", kind="check")),
        name_control="skill", name_of=_row_name, value_of=_row_value,
        controls_of=_row_controls),
))

OUTCOMES = {  # seed 000: "Levels of Success and Failure"
    "great success": ("Great success", "The total reaches the next higher difficulty "
                      "above the DTN: the GM may reward it."),
    "success": ("Success", "The total meets or beats the DTN."),
    "failure": ("Failure", "The total is under the DTN."),
    "bad failure": ("Bad failure", "The total is under the next lower difficulty too."),
    "initiator": ("Initiator wins", "The higher total; a tie goes to the higher aspect, "
                  "then to the initiator."),
    "opponent": ("Opponent wins", "The opponent's total is higher, or ties with a "
                 "higher aspect."),
}

# The four kinds of flip, each its own form, laid out in page macros (tools/page_macros.py).
OPPOSED_SIDE = """\
      <fieldset class="side" data-skill-scope>
        <legend>{title}</legend>
        <div class="grid">
          <sc-side id="flip-opposed-{name}" name="{name}" skill take7 fold></sc-side>
        </div>
      </fieldset>
"""  # an opposed flip's two sides, alike but for their names

FORM = """\
<template class="sysform-later" data-system="flip" data-mode="unopposed">
  <fieldset class="sysform" id="form-flip-unopposed" data-system="flip" data-mode="unopposed" \
data-skill-scope>
    <legend>Unopposed flip</legend>
    <div class="grid">
      <sc-difficulty id="flip-unopposed" secret></sc-difficulty>
    </div>
    <div class="grid">
      <sc-side id="flip-unopposed" name="" skill></sc-side>
    </div>
    <div class="grid">
      <sc-field id="flip-unopposed-take7" field="flip.take7" \
hint="no cards: count a 7 (rank 1 or more)"></sc-field>
      <sc-field id="flip-unopposed-secret" field="flip.secret"></sc-field>
      <sc-field id="flip-unopposed-commitment" field="flip.commitment"></sc-field>
    </div>
  </fieldset>
</template>
<template class="sysform-later" data-system="flip" data-mode="aspect">
  <fieldset class="sysform" id="form-flip-aspect" data-system="flip" data-mode="aspect">
    <legend>Aspect check</legend>
    <div class="grid">
      <sc-difficulty id="flip-aspect" secret></sc-difficulty>
    </div>
    <div class="grid">
      <sc-field id="flip-aspect-aspect" field="flip.aspect" hint="cards and bonus"></sc-field>
      <sc-field id="flip-aspect-flip" field="flip.flip"></sc-field>
      <sc-field id="flip-aspect-shift" field="flip.shift"></sc-field>
      <sc-own-draw id="flip-aspect-cards" system="flip"></sc-own-draw>
    </div>
    <div class="grid">
      <sc-field id="flip-aspect-take7" field="flip.take7"></sc-field>
      <sc-field id="flip-aspect-secret" field="flip.secret"></sc-field>
      <sc-field id="flip-aspect-commitment" field="flip.commitment"></sc-field>
    </div>
  </fieldset>
</template>
<template class="sysform-later" data-system="flip" data-mode="opposed">
  <fieldset class="sysform" id="form-flip-opposed" data-system="flip" data-mode="opposed">
    <legend>Opposed flip</legend>
    <div class="versus">
{SIDES}    </div>
    <div class="grid">
      <sc-field id="flip-opposed-gm-take7" field="flip.gm_allows_take7"></sc-field>
    </div>
  </fieldset>
</template>
<template class="sysform-later" data-system="flip" data-mode="team">
  <fieldset class="sysform" id="form-flip-team" data-system="flip" data-mode="team" \
data-skill-scope>
    <legend>Team flip</legend>
    <div class="grid paired">
      <sc-difficulty id="flip-team"></sc-difficulty>
      <sc-field id="flip-team-gm-raise" field="flip.gm_raises_dtn"></sc-field>
    </div>
    <fieldset class="side">
      <legend>Primary</legend>
      <div class="grid">
        <sc-side id="flip-team-primary" name="primary" skill take7 fold></sc-side>
      </div>
    </fieldset>
    <sc-team-helpers id="flip-team"></sc-team-helpers>
  </fieldset>
</template>
""".replace("{SIDES}", "".join(OPPOSED_SIDE.format(title=title, name=name) for title, name in
                             (("Initiator", "initiator"), ("Opponent", "opponent"))))

DTN_BOX = Reveal("DTN or difficulty", "a number like 15, or a word like hard", "dtn",
                 by_word=True)

PAGE = SystemPage(
    id="flip",
    icon=(
        '<rect x="3.5" y="5" width="12" height="17" rx="2.2" transform="rotate(-12 9.5 13.5)"/>'
        '<rect x="11" y="6" width="12" height="17" rx="2.2" transform="rotate(9 17 14.5)"/>'
        '<path class="fill" d="M17 11.2c-1.1-1.6-3.3-.5-2.6 1.2.4 1 2.6 2.7 2.6 2.7'
        's2.2-1.7 2.6-2.7c.7-1.7-1.5-2.8-2.6-1.2z"/>'
    ),
    outcomes=OUTCOMES,
    said={"rank": "rank {}", "aspect": "aspect {}", "flip": "flip {:+d}", "shift": "shift {:+d}",
          "specialization": "specialization", "advanced": "advanced",
          "familiarity": "familiarity", "take7": "takes a 7", "secret": "secret difficulty",
          "gm_allows_take7": "GM allows a 7", "gm_raises_dtn": "GM raises the DTN"},
    terms="DTN — Difficulty Target Number: the total the GM sets to meet or beat.",
    sheet=SHEET,
    fill=fill,
    reveal=DTN_BOX,
    gm_sets=DTN_BOX,
    unskilled=unskilled,
    form=FORM,
    chip_wraps=True,
    deciding=("total {total} vs DTN {dtn}", "total {primary[total]} vs DTN {dtn}",
              "{initiator[total]} to {opponent[total]}, tie broken by {tiebreak}",
              "{initiator[total]} to {opponent[total]}"),
    adjust={"unopposed": ("difficulty", "shift"), "aspect": ("difficulty", "shift"),
            "opposed": ("opponent.rank", "opponent.aspect"),
            "team": ("difficulty", "primary.shift")},
    pick=Pick(side_of_mode={"opposed": "initiator", "team": "primary"},
              sides={"opposed": ("initiator", "opponent")},
              skill_mode={"aspect": "unopposed"}, seed_skill=seed_skill,
              spelled=ASPECT_NAMES),
)
