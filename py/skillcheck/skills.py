"""Seed 000's skill list as data, so the page can offer a skill picker and the engine knows
which skills are Advanced ("Craft, Knowledge, and Profession are Advanced Skills ...")."""

from __future__ import annotations

from dataclasses import dataclass

# The nine aspects a character has, in the order the character editor lists them (the skill list
# ties each skill to one; no skill there uses II).
ASPECTS = ("HS", "SS", "AI", "II", "MC", "SP", "IP", "IE", "PC")
# The text spells out only these four aspects; MC, SP, IP, IE and PC appear as abbreviations only.
ASPECT_NAMES = {
    "HS": "Hard Strength",
    "SS": "Soft Strength",
    "AI": "Acquired Intellect",
    "II": "Innate Intelligence",
}


@dataclass(frozen=True)
class Skill:
    """One row of the skill list: "Skill  Aspect  Type  Specializations"."""

    name: str
    aspect: str
    advanced: bool
    specializations: tuple[str, ...] = ()
    # "Varies by Type": the player picks a sub-type (Craft: blacksmithing). These three are also
    # the skills the text says "can have Familiarities".
    by_type: bool = False

    @property
    def aspect_name(self) -> str | None:
        return ASPECT_NAMES.get(self.aspect)

    def describe(self) -> dict:
        return {"name": self.name, "aspect": self.aspect, "aspect_name": self.aspect_name,
                "type": "Advanced" if self.advanced else "Basic",
                "specializations": list(self.specializations), "by_type": self.by_type}


BASIC, ADVANCED = False, True

SKILLS = (
    Skill("Acrobatics", "SS", BASIC,
          ("Balancing", "Contortion", "Quick Stand", "Tumbling", "Breakfall")),
    Skill("Animal Handling", "MC", ADVANCED, ("Calm Animal", "Train Animal", "Specific Animal")),
    Skill("Appraisal", "SP", BASIC, ("Buying and Selling", "Bartering", "Specific Objects")),
    Skill("Assessment", "MC", BASIC,
          ("Analyze Person", "Sense Motive", "Detect Lies", "Detect Influence")),
    Skill("Athletics", "HS", BASIC,
          ("Climbing", "Swimming", "Jumping", "Running", "Lifting", "Individual Sport")),
    Skill("Craft", "AI", ADVANCED, by_type=True),
    Skill("Discipline", "IE", BASIC, ("Resist Charm", "Resist Intimidation", "Resist Fear",
                                      "Resist Torture", "Leadership")),
    Skill("Disguise", "PC", ADVANCED,
          ("Appearance", "Body Language", "Voice", "Disguise Others")),
    Skill("Dueling", "SS", ADVANCED, ("Evaluation", "Focus")),
    Skill("First Aid", "AI", BASIC, ("Critical Care", "Long Term Care", "Poison", "Disease",
                                     "Surgery", "Herbalism")),
    Skill("Intimidation", "PC", BASIC, ("Combat", "Interrogation", "Social", "Subtle")),
    Skill("Investigation", "AI", ADVANCED, ("Academic", "Forensic", "Street", "Conversation",
                                            "Deduction", "Surveillance")),
    Skill("Knowledge", "AI", ADVANCED, by_type=True),
    Skill("Language", "AI", ADVANCED, ("Spoken", "Written")),
    Skill("Notice [IP]", "IP", BASIC,
          ("Arcane", "Details", "Illusions", "Search Area", "Patrol/Guard")),
    Skill("Notice [SP]", "SP", BASIC,
          ("Details", "Distance", "Search Area", "Lip Reading", "Patrol/Guard")),
    Skill("Perform", "MC", BASIC,
          ("Dance", "Specific Instrument", "Oratory", "Singing", "Acting")),
    Skill("Persuasion", "MC", BASIC, ("Lying", "Charm", "Diplomacy", "Bribery", "Manipulation")),
    Skill("Profession", "AI", ADVANCED, by_type=True),
    Skill("Ride", "SS", BASIC, ("By Animal Type", "Stagecoach/Wagons", "Mounted Combat",
                                "Long Distance Travel")),
    Skill("Stealth", "SS", BASIC, ("Silent Movement", "Hide", "Ambush", "Shadowing")),
    Skill("Survival", "AI", BASIC, ("Find Food and Water", "Find Shelter", "Identify Plant",
                                    "Identify Animal", "Tracking", "Navigation")),
    Skill("Thievery", "SS", ADVANCED, ("Pick Pockets", "Palm Object", "Lockpick", "Traps",
                                       "Disable Traps", "Forgery", "Gambling")),
)

BY_NAME = {skill.name: skill for skill in SKILLS}
