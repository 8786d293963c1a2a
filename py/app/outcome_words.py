"""What each outcome is called in its rulebook (shared/seeds/) and what it means, in one line a
player reads beside its chance. The engine's outcome names are the contract's and stay short
("basic"); these are the words the table says ("Basic Success"). TERMS spells out the
abbreviations a system's words use, once, under its odds.
"""

from __future__ import annotations

_POOL = {
    # seed 002, "Degrees of Success"; IoS 2 has no name there, so it is called by its IoS.
    "critical": ("Critical Success", "IoS 3 or more: two or more successes beyond the DR, "
                 "a slam dunk."),
    "success": ("Success (IoS 2)", "One success beyond the DR; the rulebook gives it no name."),
    "basic": ("Basic Success", "IoS 1: exactly the DR. The desired effect, nothing spectacular."),
    "barely": ("Barely Succeeding", "The DR is met only with bonus points or Luck."),
    "failure": ("Failure", "IoS −1 or −2: one or two successes short of the DR."),
    "disaster": ("Disaster", "IoS −3 or lower: three or more short. Adverse effects."),
    "flubbed": ("Flubbed", "Trait and Skill 10 and three or more 10s rolled: fumbled."),
    "too difficult": ("Too difficult", "The DR is above the Trait: no roll can make it."),
}

WORDS: dict[str, dict[str, tuple[str, str]]] = {
    "flip": {  # seed 000: "Levels of Success and Failure"
        "great success": ("Great success", "The total reaches the next higher difficulty "
                          "above the DTN: the GM may reward it."),
        "success": ("Success", "The total meets or beats the DTN."),
        "failure": ("Failure", "The total is under the DTN."),
        "bad failure": ("Bad failure", "The total is under the next lower difficulty too."),
        "initiator": ("Initiator wins", "The higher total; a tie goes to the higher aspect, "
                      "then to the initiator."),
        "opponent": ("Opponent wins", "The opponent's total is higher, or ties with a "
                     "higher aspect."),
    },
    "pool": _POOL,
    "swift": {  # the Swift edition counts IoS from the target Trait + Skill
        "critical": ("Critical Success", "IoS 3 or more: the 2d10 roll two or more under "
                     "the target, a slam dunk."),
        "success": ("Success (IoS 2)", "One under the target; the rulebook gives it no name."),
        "basic": ("Basic Success", "IoS 1: the roll is exactly the target."),
        "barely": ("Barely Succeeding", "The target is reached only with bonus points or Luck."),
        "failure": ("Failure", "IoS −1 or −2: one or two over the target."),
        "disaster": ("Disaster", "IoS −3 or lower: three or more over. Adverse effects."),
    },
    "fluke": {  # seed 003
        "success": ("Success", "The total, ones left out, is greater than the target (a "
                    "challenge: 8 or more and no ones)."),
        "failure": ("Failure", "The total is not greater than the target."),
        "fluke": ("Fluke", "At least half the dice are ones: things go severely wrong."),
    },
    "passages": {  # seed 004, from the best roll to the worst
        "double down": ("Double Down", "At or under half the base: wildly successful."),
        "success": ("Skills Success", "At or under the base: it works as intended."),
        "double up": ("Double Up", "Over the base, up to double it: it partly succeeds, with "
                      "consequences."),
        "blown": ("Blown Roll", "Over double the base: it fails, with adverse consequences."),
        "critical fail": ("Critical Fail", "A roll of 100 (00): it fails, with adverse "
                          "consequences."),
    },
}


_IOS = "IoS — Increment of Success: 1 when the {0} is met exactly, 1 more for each {1} beyond."
TERMS = {
    "flip": "DTN — Difficulty Target Number: the total the GM sets to meet or beat.",
    "pool": "DR — Difficulty Rating: the successes needed. " + _IOS.format("DR", "success"),
    "swift": _IOS.format("target", "point under it"),
}


def outcome_name(system: str, outcome: str) -> str:
    """The rulebook's name of an outcome ("Basic Success"), or the outcome as a sentence."""
    found = WORDS.get(system, {}).get(outcome)
    return found[0] if found else outcome[:1].upper() + outcome[1:]


def outcome_meaning(system: str, outcome: str) -> str:
    """One line on what the outcome means at the table, or "" for one the rulebook leaves be."""
    found = WORDS.get(system, {}).get(outcome)
    return found[1] if found else ""
