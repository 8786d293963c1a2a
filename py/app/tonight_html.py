"""The log's "Tonight" view as escaped HTML: each character's run and the table's, in a sentence,
a few numbers and a dot picture of the evening (each roll's place, oldest on the left, the fair
average as a line across). Pure, so CPython tests read it."""

from __future__ import annotations

from html import escape

from .tonight import Run, sentence

WIDTH, HEIGHT = 200, 30  # the picture in its own units: about a phone's proportions


def dots_svg(run: Run) -> str:
    """One dot per roll at its place (high is lucky), a line at the fair average."""
    count = len(run.places)
    dots = "".join(
        f'<circle cx="{(i + 0.5) / count * WIDTH:.2f}" '
        f'cy="{(1 - float(p.place)) * (HEIGHT - 4) + 2:.2f}" r="1.6"'
        + (' class="shared"' if "shared" in p.entry else "") + "/>"
        for i, p in enumerate(run.places))
    whose = f"{run.who}’s" if run.who else "The table’s"
    label = (f"{whose} {count} roll{'s' * (count != 1)} tonight, oldest first, each at its "
             f"place among its odds: {', '.join(f'{round(p.place * 100)} %' for p in run.places)}")
    return (f'<svg class="tonight-dots" viewBox="0 0 {WIDTH} {HEIGHT}" '
            f'preserveAspectRatio="none" role="img" aria-label="{escape(label)}">'
            f'<line x1="0" x2="{WIDTH}" y1="{HEIGHT / 2}" y2="{HEIGHT / 2}"/>{dots}</svg>')


def numbers(run: Run) -> str:
    count = len(run.places)
    shared = f" · {run.shared} from other phones" if run.shared else ""
    return (f"{count} roll{'s' * (count != 1)} · average place {round(run.average * 100)} % · "
            f"a run this far from even: {run.chance * 100:.1f} %{shared}")


def tonight_html(runs: list[Run]) -> str:
    """Every run, the table's last; a note when there is nothing to weigh."""
    if not runs:
        return ('<p class="hint">No roll to weigh tonight yet: a secret difficulty counts once '
                "the GM reveals it.</p>")
    items = "".join(
        f'<li class="tonight-run"><p class="tonight-who">{escape(run.who or "The whole table")}'
        f'</p><p>{escape(sentence(run))}</p><p class="hint">{escape(numbers(run))}</p>'
        f"{dots_svg(run)}</li>"
        for run in runs)
    return (f'<ul class="tonight-runs">{items}</ul><p class="hint">Each roll’s place is where its '
            "dice fell among the check’s exact outcomes (Luck or Insurance spent after the roll "
            "left out); half of all fair rolls land below 50 %. Withdrawn rolls are left out; "
            "rolls added from other phones count for whoever rolled them.</p>")
