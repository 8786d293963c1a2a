"""Version 2 replay links' preset dictionary (py/app/links.py): deflate starts out knowing these
words, so a link spends its bytes on the draw instead of on field names.

Frozen data, not knowledge: every link shared since version 2 depends on each byte of it, so it
never changes, not even when a system is added or renamed (a new dictionary is a new version).
It is the one app file besides the systems' records that names systems (tests/test_systems.py).
"""

from __future__ import annotations

# Rarest first: the nearest words cost the least.
WORDS = "".join((
    *(f'"skill":"{skill}",' for skill in (
        "Acrobatics", "Animal Handling", "Appraisal", "Assessment", "Athletics", "Craft",
        "Discipline", "Disguise", "Dueling", "First Aid", "Intimidation", "Investigation",
        "Knowledge", "Language", "Notice [IP]", "Notice [SP]", "Perform", "Persuasion",
        "Profession", "Ride", "Stealth", "Survival", "Thievery")),
    '"difficulty":"extremely easy","very easy","near impossible","impossible","very hard",'
    '"average","easy","hard"',
    ',"gm_allows_take7":true,"gm_raises_dtn":true,"luck_spend":',
    ',"keep":',
    '"double down","double up","blown","critical fail"],',
    '{"system":"passages","base":50,"contested":true,"practice":true,"dice":[100]},',
    '"fluke"],',
    '{"system":"fluke","dice_count":6,"base":10,"penalty":-1,"plan":1,"challenge":true,'
    '"insurance":1,"dice":[1,2,3,4,5,6]},',
    '"critical","basic","barely","disaster","flubbed","too difficult"],',
    '{"system":"swift","trait":5,"skill":5,"bonus":1,"luck":1,"dice":[10,10]},',
    '{"system":"pool","trait":5,"skill":5,"dr":3,"bonus":1,"luck":1,"secret":true,'
    '"dice":[10,10,10]},',
    '"great success","bad failure","initiator","opponent","secret","failure","success"],',
    '{"system":"flip","mode":"opposed","initiator":{"rank":2,"aspect":3,'
    '"opponent":{"rank":2,"aspect":3,',
    '{"system":"flip","mode":"aspect","aspect":3,"dtn":15,',
    '{"system":"flip","mode":"team","dtn":15,"primary":{"rank":2,"aspect":3,'
    '"secondaries":[{"rank":1,"aspect":2,',
    '{"system":"flip","mode":"unopposed","dtn":15,"rank":2,"aspect":3,"specialization":true,'
    '"advanced":true,"familiarity":true,"take7":true,"flip":1,"shift":1,"secret":true,',
    '"cards":["10H","10D","10C","10S"]},{"rank":',
)).encode()
