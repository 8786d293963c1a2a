"""Seed 000, the card flip: flip cards for a skill, keep one, add the aspect, meet the DTN.

rules.py reads a request and holds every ruling; resolve.py draws the cards and explains them;
odds.py counts the same rulings exactly. Both of the last two judge through rules.py, so a drawn
result and its odds can never disagree.
"""

from ..skills import SKILLS
from ..system import System
from . import odds, resolve
from .rules import (
    DIFFICULTY,
    DTN,
    GM_RAISE,
    GM_TAKE7,
    LADDER,
    MAX_SECONDARIES,
    MODE,
    MODES,
    OUTCOMES,
    SECRET,
    SIDE_FIELDS,
    WINNERS,
)

SYSTEM = System(
    name="flip", label="Card flip", seed="000", button="Flip",
    outcomes=OUTCOMES, winners=WINNERS, resolve=resolve.resolve, odds=odds.odds,
    fields=(MODE, *SIDE_FIELDS, DTN, DIFFICULTY, SECRET, GM_TAKE7, GM_RAISE), modes=MODES,
    extra={"skills": [skill.describe() for skill in SKILLS],
           "ladder": [{"name": name, "dtn": dtn} for name, dtn in LADDER],
           "side_fields": [spec.name for spec in SIDE_FIELDS],
           "max_secondaries": MAX_SECONDARIES},
)
