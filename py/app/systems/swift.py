"""The Swift edition on the page (seed 002's 2d10; rules in py/skillcheck/swift.py): it reads
the d10 pool's sheet and spends its Luck; its IoS counts from the target Trait + Skill.
"""

from __future__ import annotations

from . import pool
from .record import SystemPage

PAGE = SystemPage(
    id="swift",
    icon=('<path d="M8.5 5l6 5-1.2 5.2L8.5 18.5l-4.8-3.3L2.5 10z"/>'
          '<path d="M18 8l6 5-1.2 5.2L18 21.5l-4.8-3.3L12 13z"/>'),
    outcomes={
        "critical": ("Critical Success", "IoS 3 or more: the 2d10 roll two or more under "
                     "the target, a slam dunk."),
        "success": ("Success (IoS 2)", "One under the target; the rulebook gives it no name."),
        "basic": ("Basic Success", "IoS 1: the roll is exactly the target."),
        "barely": ("Barely Succeeding", "The target is reached only with bonus points or Luck."),
        "failure": ("Failure", "IoS −1 or −2: one or two over the target."),
        "disaster": ("Disaster", "IoS −3 or lower: three or more over. Adverse effects."),
    },
    said=pool.SAID,
    terms=pool.IOS_TERM.format("target", "point under it"),
    reads=pool.SHEET.key,
    fill=pool.fill,
    gm_sets=None,  # the target is each character's own Trait + Skill
    drawn_with="d10",
    resource=pool.LUCK,
    points=pool.MORE_LUCK,
    deciding=pool.DECIDING,
    adjust={"": ("skill", "bonus")},
)
