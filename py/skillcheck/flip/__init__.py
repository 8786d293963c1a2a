"""Seed 000, the card flip: flip cards for a skill, keep one, add the aspect, meet the DTN.

rules.py reads a request and holds every ruling; resolve.py draws the cards and explains them;
odds.py counts the same rulings exactly. Both of the last two judge through rules.py, so a drawn
result and its odds can never disagree.
"""

from ..commitment import COMMITMENT, GM_CODE
from ..request import Form
from ..skills import SKILLS
from ..system import System
from . import odds, resolve
from .rules import (
    ADVANCED,
    ASPECT,
    DIFFICULTY,
    DTN,
    FAMILIARITY,
    FLIP,
    GM_RAISE,
    GM_TAKE7,
    KEEP,
    LADDER,
    MAX_SECONDARIES,
    MODE,
    MODES,
    OUTCOMES,
    RANK,
    SECRET,
    SHIFT,
    SIDE_FIELDS,
    SKILL,
    SPECIALIZATION,
    TAKE7,
    WINNERS,
    read_dtn,
)

SYSTEM = System(
    name="flip", label="Card flip", seed="000", button="Flip",
    outcomes=OUTCOMES, winners=WINNERS, resolve=resolve.resolve, odds=odds.odds,
    fields=(MODE, SKILL, RANK.shown("cards to flip", 2, label="Rank"),
            ASPECT.shown("added to the card", 3), FLIP.shown("cards ±", label="Flip modifier"),
            SHIFT.shown("total ±", label="Shift"), SPECIALIZATION,
            ADVANCED.shown("Craft, Knowledge, Profession…"),
            FAMILIARITY.shown("lets an Advanced skill flip at rank 0"),
            TAKE7.shown("no cards: count a 7"), KEEP,
            DTN.shown("Difficulty Target Number", label="DTN"),
            DIFFICULTY.shown(start="average"),
            SECRET.shown("the GM keeps the DTN and judges the total", label="Secret difficulty"),
            COMMITMENT.shown(GM_CODE, on_when="secret"),
            GM_TAKE7.shown("rare circumstances: lets a side take a 7", label="GM allows a 7"),
            GM_RAISE.shown("one rating up if a helper fails badly", label="GM raises the DTN")),
    modes=MODES, draw=Form("cards", "rank then suit, like 7H 10S QD"),
    extra={"skills": [skill.describe() for skill in SKILLS],
           "ladder": [{"name": name, "dtn": dtn} for name, dtn in LADDER],
           "side_fields": [spec.name for spec in SIDE_FIELDS],
           "max_secondaries": MAX_SECONDARIES},
    difficulty=lambda request: read_dtn(request, secret=False)[0],
    difficulty_keys=("dtn", "difficulty"),
)
