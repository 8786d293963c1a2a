"""What the player reads: a result (headline, cards or dice, the deciding numbers, the engine's
explanation) and the odds table, as escaped HTML strings. Pure, so CPython tests can read it.

The words come from the result; this module only arranges them. Which die a system rolls is a
matter of looks, so it lives here; whether a die succeeded is read from the result's numbers.
"""

from __future__ import annotations

import math
from fractions import Fraction
from html import escape

from skillcheck.draw import card_name

from . import pieces_svg
from .advice import Advice, Row, verdict
from .check_words import SEEDED
from .pieces_svg import d6_svg, d10_svg, die
from .systems import outcome_meaning, outcome_name, page_of

# The numbers worth showing under the headline, in reading order, when a result carries them.
FACTS = (
    ("kept_value", "Kept card"), ("total", "Total"), ("dtn", "DTN"), ("margin", "Margin"),
    ("successes", "Successes"), ("ios", "IoS"),
    ("roll", "Roll"), ("target", "Target"), ("value", "Value"),
    ("du", "Double Up"), ("dd", "Double Down"), ("ones", "Ones"), ("insured", "Insured ones"),
    ("bonus_used", "Bonus used"), ("luck_used", "Luck used"), ("xp_spent", "XP spent"),
    ("tiebreak", "Tie broken by"),
)
SIGNED = {"margin"}
SIDE_TITLES = {"initiator": "Initiator", "opponent": "Opponent", "primary": "Primary",
               "secondaries": "Helper"}


def sentence_case(text: str) -> str:
    return text[:1].upper() + text[1:]


def tone(success: bool | None) -> str:
    return {True: "good", False: "bad"}.get(success, "neutral")


def percent(p: Fraction) -> str:
    """A chance to one decimal, never rounding a possible outcome to 0 % or a doubt to 100 %."""
    if 0 < p < Fraction(1, 2000):
        return "<0.1 %"
    if Fraction(1999, 2000) <= p < 1:
        return ">99.9 %"
    tenths = math.floor(p * 1000 + Fraction(1, 2))  # half up: 0.05 % shows as 0.1 %
    return f"{tenths // 10}.{tenths % 10} %"


# ---------------------------------------------------------------------------------------------
# results
# ---------------------------------------------------------------------------------------------

def result_html(result: dict, animate: bool = True, notes: tuple[str, ...] = (),
                offers: bool = False, heading: str = "", seeded: bool = False,
                withdrawn: bool = False, glance: str = "", why_open: bool = True) -> str:
    """The whole result: what was checked (`heading`: "Mara · Stealth (d10 pool)"), headline,
    what was drawn, the deciding numbers, the explanation; with `offers` (a roll just made
    here, not one shown again nor one the GM revealed), the Luck the player may still spend
    and the other cards they may keep instead. A `seeded` draw says under its headline that
    it was not random, so no one at the table takes it for a fair roll; a `withdrawn` one
    (taken back with Undo) is struck through and says so. `glance`, under the headline: the
    chance it had and where it fell among its outcomes (landed_html.py), and the knobs for the
    next roll (adjust_html.py). An opposed or team flip's explanation is folded under "Why",
    open with `why_open`."""
    moving = " animate" if animate else ""
    said = (f'<p class="seeded">{escape(SEEDED)}</p>' if seeded else "") + "".join(
        f'<p class="note">{escape(note)}</p>' for note in notes)
    choices = luck_offers_html(result) if offers else ""
    named = f'<p class="result-title">{escape(heading)}</p>' if heading else ""
    return (f'<article class="outcome {tone(result.get("success"))}{moving}" '
            f'data-outcome="{escape(str(result.get("outcome")))}" '
            f'data-system="{escape(str(result.get("system")))}">'
            f"{named}{headline(result, withdrawn)}{glance}{said}{drawn(result, offers)}{choices}"
            f"{facts_html(result)}"
            f"{explain_html(result.get('explain', []), why_open if card_sides(result) else None)}"
            "</article>")


def luck_offers_html(result: dict) -> str:
    """One button per Luck spend the engine offers on these dice, naming what it makes of them
    as the headline would ("Spend 4 Luck → Critical Success"); tapping one judges the same dice
    again with that spend."""
    offers = result.get("luck_offers") or []
    if not offers:
        return ""
    system = str(result.get("system", ""))
    spent = int(result.get("luck_used") or 0)  # after a first spend, an offer costs the rest

    def said(spend: int, outcome: str) -> str:
        name = escape(outcome_name(system, outcome))
        if not spent:
            return f"Spend {spend} Luck → {name}"
        return f"{spend - spent} more Luck → {name} ({spend} in all)"

    buttons = "".join(
        f'<button type="button" class="tool luck-offer" data-luck-spend="{int(spend)}">'
        f"{said(int(spend), str(outcome))}</button>"
        for spend, outcome in ((offer["luck_spend"], offer["outcome"]) for offer in offers))
    return ('<div class="luck-offers" role="group" aria-labelledby="luck-offers-title">'
            '<p class="hint" id="luck-offers-title">Spend Luck on these dice?</p>'
            f"{buttons}</div>")


def side_title(field: str) -> str:
    """The side a dotted path is on, as the page names it: "secondaries.1.cards" → "Helper 2"."""
    key, _, rest = field.partition(".")
    title = SIDE_TITLES.get(key, sentence_case(key))
    index = rest.split(".", 1)[0]
    return f"{title} {int(index) + 1}" if index.isdigit() else title


def _outcome_words(result: dict) -> str:
    """The outcome as its rulebook names it, as the odds do ("Basic Success"); an opposed
    check names its winner ("Initiator wins")."""
    return outcome_name(str(result.get("system", "")), str(result.get("outcome", "")))


def headline(result: dict, withdrawn: bool = False) -> str:
    words = f"<strong>{escape(_outcome_words(result))}</strong>"
    mark = {True: "✓", False: "✗"}.get(result.get("success"), "?")
    if withdrawn:
        return (f'<p class="headline withdrawn"><span class="mark" aria-hidden="true">{mark}'
                f'</span><s>{words}</s> <span class="withdrawn-tag">Withdrawn</span></p>')
    return (f'<p class="headline"><span class="mark" aria-hidden="true">{mark}</span>'
            f"{words}</p>")


def facts_html(result: dict, names=FACTS) -> str:
    items = []
    for key, label in names:
        value = result.get(key)
        if value is None or isinstance(value, (dict, list)):
            continue
        shown = f"{value:+d}" if key in SIGNED and isinstance(value, int) else str(value)
        natural = result.get(f"natural_{key}")
        if natural is not None and natural != value:  # points lowered it: natural → adjusted
            shown = f"{natural} → {value}"
        items.append(f'<div class="fact" data-fact="{key}"><dt>{escape(label)}</dt>'
                     f"<dd>{escape(shown)}</dd></div>")
    return f'<dl class="facts">{"".join(items)}</dl>' if items else ""


def explain_html(lines: list[str], why_open: bool | None = None) -> str:
    """The engine's numbered explanation; folded under "Why" (open or not) unless `why_open`
    is None."""
    if not lines:
        return ""
    listed = ('<ol class="explain">' + "".join(f"<li>{escape(str(line))}</li>" for line in lines)
              + "</ol>")
    if why_open is None:
        return listed
    return (f'<details class="why"{" open" if why_open else ""}><summary>Why</summary>'
            f"{listed}</details>")


def drawn(result: dict, choose: bool) -> str:
    """The cards of every side, or the dice of a dice system; with `choose`, each other card
    can be kept instead."""
    if "cards" in result:
        return hand(result, "keep" if choose else None)
    sides = [(path, side, f"{path}.keep" if choose else None) for path, side in card_sides(result)]
    if sides:  # the hint to keep another card once, under them all
        shown = "".join(side_html(side_title(path), side, keep) for path, side, keep in sides)
        hint = next((said for _, side, keep in sides if (said := keep_hint(side, keep))), "")
        return f'<div class="sides">{shown}</div>{hint}'
    page = page_of(result.get("system"))
    shape = page.drawn_with if page else None  # None: cards, drawn from the sides above
    return dice_html(result, shape) if shape and result.get("dice") else ""


def card_sides(result: dict) -> list[tuple[str, dict]]:
    """The sides of a check with sides that flipped cards, by path: ("initiator", {...}),
    ("secondaries.0", {...}); [] for a check of one hand or of dice."""
    if "cards" in result:
        return []
    sides = []
    for key, value in result.items():
        if isinstance(value, dict) and "cards" in value:
            sides.append((key, value))
        elif isinstance(value, list) and value and all(
                isinstance(item, dict) and "cards" in item for item in value):
            sides.extend((f"{key}.{i}", item) for i, item in enumerate(value))
    return sides


def side_html(title: str, side: dict, keep_path: str | None) -> str:
    outcome = side.get("outcome")
    grant = str(side.get("grant") or "").replace("+", " +").replace("-", " −")  # "shift −1"
    words = sentence_case(str(outcome)) + (f" · {grant}" if grant else "")
    badge = (f'<span class="side-outcome {tone(side.get("success"))}">'
             f"{escape(words)}</span>") if outcome else ""
    return (f'<section class="side-result"><h3>{escape(title)}{badge}</h3>'
            f"{hand(side, keep_path, hint=False)}"
            f"{facts_html(side, (('kept_value', 'Kept'), ('total', 'Total'), ('dtn', 'DTN')))}"
            "</section>")


def hand(side: dict, keep_path: str | None, hint: bool = True) -> str:
    """A side's cards: the kept one raised, the rest dimmed; each other card can be chosen
    instead (a button over it) unless the lowest had to be kept or there is no `keep_path`
    (a roll shown again, or one the GM has revealed: that verdict is final)."""
    cards = side.get("cards") or []
    if side.get("take7"):
        return ('<ul class="hand"><li class="slot">'
                '<span class="card took7" role="img" aria-label="Took a 7: no card flipped">'
                '<span class="took7-face" aria-hidden="true">7</span></span></li></ul>')
    if not cards:
        return ""
    kept, low = side.get("kept"), bool(side.get("keep_low"))
    items = []
    for i, code in enumerate(cards):
        name = card_name(code)
        if i == kept:
            label = f"{name}, kept" + (" (the lowest must be kept)" if low else "")
            classes = "kept low" if low else "kept"
        else:
            label, classes = name, "dim"
        chooser = ""
        if keep_path and not low and i != kept:
            chooser = (f'<button type="button" class="keep-this" data-keep-path="{keep_path}" '
                       f'data-keep="{i}" aria-label="Keep the {escape(name)} instead"></button>')
        items.append(f'<li class="slot">{pieces_svg.card(code, label, classes)}{chooser}'
                     + ('<span class="low-tag">low</span>' if i == kept and low else "")
                     + "</li>")
    said = keep_hint(side, keep_path) if hint else ""
    path = f' data-keep-path="{escape(keep_path)}"' if keep_path else ""
    return (f'<ul class="hand" aria-label="Cards flipped"{path}>{"".join(items)}</ul>'
            f"{said}")


def keep_hint(side: dict, keep_path: str | None) -> str:
    """"Tap another card …", where another of the side's cards can be kept instead."""
    if side.get("take7") or side.get("keep_low") or not keep_path or len(
            side.get("cards") or []) < 2:
        return ""
    return '<p class="hint keep-hint">Tap another card to keep it instead.</p>'


def dice_html(result: dict, shape: str) -> str:
    faces = result["dice"]
    if shape == "d100":
        return "".join(_percentile(roll) for roll in faces)
    items = _d6s(faces, int(result.get("insured") or 0)) if shape == "d6" else _d10s(result)
    slots = "".join(f'<li class="slot">{item}</li>' for item in items)
    return f'<ul class="dice" aria-label="Dice rolled">{slots}</ul>'


def _d10s(result: dict) -> list[str]:
    """d10s; where the result names each die's adjusted face and success (the pool), successes
    are marked and a lowered die shows natural → adjusted."""
    faces = result["dice"]
    adjusted = result.get("adjusted")
    succeeded = result.get("succeeded") or []
    items = []
    for i, face in enumerate(faces):
        if not adjusted:
            items.append(die(d10_svg(str(face)), f"d10 showing {face}"))
            continue
        now = adjusted[i]
        good = succeeded[i]
        label = f"d10 showing {face}" + (f", lowered to {now}" if now != face else "")
        label += ", a success" if good else ", not a success"
        note = f"{face}→{now}" if now != face else ""
        classes = "success" if good else "miss"
        items.append(die(d10_svg(str(now), classes), label, note, classes))
    return items


def _d6s(faces: list[int], insured: int) -> list[str]:
    """d6s: ones marked; the first `insured` ones are the ones the insurance ignored."""
    items = []
    for face in faces:
        if face == 1 and insured:
            insured -= 1
            items.append(die(d6_svg(1, "insured"), "d6 showing 1, an insured one",
                                    "insured", "insured"))
        elif face == 1:
            items.append(die(d6_svg(1, "one"), "d6 showing 1, a one", "one", "one"))
        else:
            items.append(die(d6_svg(face), f"d6 showing {face}"))
    return items


def _percentile(roll: int) -> str:
    tens, units = pieces_svg.percentile_faces(roll)
    return ('<ul class="dice percentile" aria-label="Percentile dice">'
            f'<li class="slot">'
            f'{die(d10_svg(tens, "tens"), f"tens die showing {tens}", "tens")}</li>'
            f'<li class="slot">'
            f'{die(d10_svg(units), f"units die showing {units}", "units")}</li>'
            f'</ul><p class="roll-total">{tens} + {units} = <strong>{roll}</strong></p>')


# ---------------------------------------------------------------------------------------------
# odds
# ---------------------------------------------------------------------------------------------

def chance_words(p: Fraction) -> str:
    """A chance as people say it, then exactly: "about 1 in 6 — 16,807 in 100,000"."""
    exact = f"{p.numerator:,} in {p.denominator:,}"
    if p in (0, 1):
        return "never" if p == 0 else "every time"
    if p < Fraction(1, 10):
        near = Fraction(1, round(1 / p))
    elif p > Fraction(9, 10):
        misses = round(1 / (1 - p))
        near = Fraction(misses - 1, misses)
    else:
        near = p.limit_denominator(10)
    return exact if near == p else f"about {near.numerator:,} in {near.denominator:,} — {exact}"


def odds_html(odds: dict, description: dict) -> str:
    """Every outcome's exact chance: percent to one decimal, the fraction in title and data.
    Each row opens (a disclosure, so by touch and keyboard too) on what the outcome means and
    its chance in words and exactly. A secret check has one outcome, "secret": its odds are the
    chance of each total instead."""
    system = str(description.get("name"))
    totals = odds.get("totals")
    if totals and odds.get("success") is None:
        return _totals_html(totals, *page_of(system).totals)
    chances = {name: Fraction(p) for name, p in odds.get("outcomes", {}).items()}
    order = [name for name in description.get("outcomes", []) if name in chances]
    order += [name for name in chances if name not in order]
    winners = set(description.get("winners", []))
    rows = "".join(_odds_row(system, name, chances[name], name in winners) for name in order)
    meanings = " ".join(outcome_meaning(system, name) for name in order)
    terms = page_of(system).terms
    said = (f'<p class="hint odds-terms">{escape(terms)}</p>'
            if terms and terms.split()[0] in meanings else "")
    success = odds.get("success")
    top = ""
    if success is not None:
        p = Fraction(success)
        top = (f'<p class="odds-success" data-fraction="{p}" title="{p}">Chance of success '
               f"<strong>{percent(p)}</strong></p>")
    return f'{top}<ul class="odds-list">{rows}</ul>{said}'


def chance_html(odds: dict, bare: dict | None = None, points: str = "") -> str:
    """The chance of success for the sticky roll bar, beside Roll: the number the player weighs
    while filling the form, with the odds panel a tap away. Empty when there is no one chance
    (a secret difficulty's chart). Where the request offers `points` ("Luck 3") that change it,
    the chance without them (`bare`, the same request's odds offering none) comes first, so a
    chance only Luck reaches is never read as the dice's own: "52 % to succeed · 99 % with
    Luck 3"."""
    said = chances_said(odds, bare, points)
    if said is None:
        return ""
    first, more = said
    return (f"<strong>{first}</strong> <span>to succeed"
            + (f" · {escape(more)}" if more else "") + "</span>")


def chances_said(odds: dict, bare: dict | None, points: str) -> tuple[str, str] | None:
    """The chance of success as the page says it: (the dice's own percent, and "99 % with Luck
    3" where the `points` offered change it, else ""), or None when there is no one chance.
    The roll bar says it before the roll, the result (landed_html) after."""
    success = odds.get("success")
    if success is None:
        return None
    alone = (bare or {}).get("success")
    if alone is None or Fraction(alone) == Fraction(success) or not points:
        return percent(Fraction(success)), ""
    return percent(Fraction(alone)), f"{percent(Fraction(success))} with {points}"


def advice_html(advice: Advice, opened: frozenset[int] = frozenset()) -> str:
    """The spend advisor (app/advice.py) as a compact table: a row per number of points, the
    chance of success and of each better degree (or better) in percent, headed by the rulebook's
    names; a tap on a row (or its button) opens a line under it with each chance in words and
    exactly, as an odds row does. The rows numbered in `opened` start open (the table is drawn
    anew as the form changes)."""
    system, word = advice.system, escape(advice.word)
    heads = [("Any success" if advice.degrees else outcome_name(system, advice.winners[0]), "")]
    heads += [(outcome_name(system, degree), "" if i == len(advice.degrees) - 1 else "or better")
              for i, degree in enumerate(advice.degrees)]
    cols = "".join(f'<th scope="col">{escape(name)}'
                   + (f' <span class="or-better">{more}</span>' if more else "") + "</th>"
                   for name, more in heads)
    names = [f"{name} {more}".strip() for name, more in heads]
    rows = "".join(_advice_row(advice, row, names, row.points in opened) for row in advice.rows)
    said = page_of(system).said
    held = "; ".join(said.get(name, name + " {}").format(value) for name, value in advice.held)
    notes = verdict(advice) + (f" Every row keeps {held} as typed." if held else "")
    return (f'<table class="advice-table" data-field="{escape(advice.field)}">'
            f"<caption>What more {word} buys</caption>"
            f'<thead><tr><th scope="col">{word}</th>{cols}</tr></thead>'
            f"<tbody>{rows}</tbody></table>"
            f'<p class="hint advice-verdict">{escape(notes)}</p>')


def _advice_row(advice: Advice, row: Row, names: list[str], opened: bool) -> str:
    """One number of points: its button (what opens the exact line), then each chance."""
    n, word = row.points, escape(advice.word)
    chances = (row.success, *row.better)
    cells = "".join(f'<td data-fraction="{p}" title="{p}">{percent(p)}</td>' for p in chances)
    stops = " adds-nothing" if n == advice.stops else ""
    exact = "".join(f"<li>{escape(name)}: {escape(chance_words(p))}</li>"
                    for name, p in zip(names, chances, strict=True))
    return (f'<tr class="advice-row{stops}" data-points="{n}"><th scope="row">'
            f'<button type="button" class="advice-open" aria-expanded="{str(opened).lower()}" '
            f'aria-controls="advice-exact-{n}">{n}<span class="vh"> {word}</span></button></th>'
            f"{cells}</tr>"
            f'<tr class="advice-exact" id="advice-exact-{n}"{"" if opened else " hidden"}>'
            f'<td colspan="{len(chances) + 1}"><p>With {n} {word}:</p><ul>{exact}</ul></td></tr>')


def last_html(result: dict, kind: str = "") -> str:
    """The shown result in one line for the roll bar: a way back to it from anywhere in the
    form, naming its `kind` of check ("d10 pool result"): the form may show another system."""
    mark = {True: "✓", False: "✗"}.get(result.get("success"), "?")
    return (f'<span class="{tone(result.get("success"))}"><span aria-hidden="true">{mark}</span> '
            f'<strong>{escape(_outcome_words(result))}</strong></span> '
            f'<span>{escape(f"{kind} result" if kind else "see result")}</span>')


def bar(length: float, across: bool) -> str:
    """A bar `length` per cent long (at least a sliver), drawn in SVG: its size is an attribute,
    not a style, so the page's security policy needs no inline styles (docs/security.md)."""
    length = max(length, 1.5)
    if across:
        return (f'<svg class="odds-bar" viewBox="0 0 100 1" preserveAspectRatio="none" '
                f'aria-hidden="true" focusable="false">'
                f'<rect width="{length:.3f}" height="1" rx="3" ry="0.5"/></svg>')
    return (f'<svg class="chart-bar" viewBox="0 0 1 100" preserveAspectRatio="none" '
            f'aria-hidden="true" focusable="false">'
            f'<rect y="{100 - length:.3f}" width="1" height="{length:.3f}"/></svg>')


def _odds_row(system: str, name: str, p: Fraction, winner: bool) -> str:
    meaning = outcome_meaning(system, name)
    return (f'<li class="odds-row {"good" if winner else "bad"}" data-outcome="{escape(name)}" '
            f'data-fraction="{p}" title="{p}"><details><summary><span class="odds-name">'
            f"{escape(outcome_name(system, name))}</span>{bar(float(p * 100), across=True)}"
            f'<span class="odds-pct">{percent(p)}</span></summary>'
            + (f'<p class="odds-meaning">{escape(meaning)}</p>' if meaning else "")
            + f'<p class="odds-exact">{escape(sentence_case(chance_words(p)))}.</p>'
            "</details></li>")


MOST_KEYS = 16  # more bars than this: only every fifth is numbered under the chart


def _totals_html(totals: dict, word: str, heading: str, target: str) -> str:
    """A secret check's odds as a small bar chart: how likely each total is, for the GM to
    weigh against the difficulty they keep. Each bar reads out its total and chance; under it
    the numbers, with the chance of at least each total — the chance of success against that
    DTN (or DR)."""
    items = sorted((int(total), Fraction(p)) for total, p in totals.items())
    tallest = max(p for _, p in items)
    bars = "".join(
        f'<li data-total="{total}" data-fraction="{p}" title="{total}: {p}">'
        f'{bar(float(p / tallest * 100), across=False)}'
        f'<span class="chart-key" aria-hidden="true">'
        f'{total if len(items) <= MOST_KEYS or total % 5 == 0 else ""}</span>'
        f'<span class="vh">{total}: {percent(p)}</span></li>'
        for total, p in items)
    rows, left = [], Fraction(1)
    for total, p in items:
        rows.append(f'<tr data-total="{total}" data-at-least="{left}"><th scope="row">{total}'
                    f"</th><td>{percent(p)}</td><td>{percent(left)}</td></tr>")
        left -= p
    return (f'<p class="odds-success">The difficulty is secret: the chance of each {word}'
            f'</p><ol class="chart" aria-label="Chance of each {word}">{bars}</ol>'
            f'<details class="gm-numbers"><summary>Numbers for the GM</summary>'
            f'<table class="odds-table"><caption>“At least” is the chance of success against '
            f"a {target} of that number.</caption><thead><tr><th scope=\"col\">{heading}</th>"
            '<th scope="col">Exactly</th><th scope="col">At least</th></tr></thead>'
            f'<tbody>{"".join(rows)}</tbody></table></details>')


def problem_html(message: str) -> str:
    return f'<p class="problem">{escape(message)}</p>'


def placeholder_html(button: str) -> str:
    return f'<p class="placeholder">Press {escape(button)} to see the result here.</p>'
