"""JSON → checked values. Every limit of the contract is declared here once, as a field spec.

A spec both reads a field (raising InvalidRequest that names it) and describes it (label, range,
default, and, once a system shows it on a form, its Form: label, hint, starting value), so the
page's forms are built at build time from the same numbers the engine checks (tools/page_macros).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from .errors import InvalidRequest

REQUIRED = object()


def path(prefix: str, name: str) -> str:
    """The dotted name of a nested field: path("initiator", "rank") == "initiator.rank"."""
    return f"{prefix}.{name}" if prefix else name


def as_object(value, field: str) -> dict:
    if not isinstance(value, dict):
        raise InvalidRequest(field, "must be an object of named fields")
    return value


def is_whole(value) -> bool:
    """JSON integers only: not a bool, not 2.0, not "2"."""
    return isinstance(value, int) and not isinstance(value, bool)


@dataclass(frozen=True)
class Form:
    """How a system's form shows a field: the label and hint beside its box, the value the box
    starts at (None: the spec's default, or empty), the switches that turn it off (their
    names, space-separated: the field is then left out of the request, as the rules want), and
    the switch without which it is off and out of sight (the GM's code, only on a secret check)."""

    label: str
    hint: str = ""
    start: object = None
    off_when: str = ""
    on_when: str = ""

    def describe(self) -> dict:
        return {"label": self.label, "hint": self.hint, "start": self.start,
                "off_when": self.off_when, **({"on_when": self.on_when} if self.on_when else {})}


class Spec:
    """What every field spec shares: `shown` gives the copy a system puts in its `fields`, with
    the Form the page draws; reading is unchanged by it."""

    def shown(self, hint: str = "", start: object = None, *, label: str | None = None,
              off_when: str = "", on_when: str = ""):
        return replace(self, form=Form(self.label if label is None else label, hint,
                                       self.starts_at(start), off_when, on_when))

    def starts_at(self, start: object) -> object:
        return start

    def described(self, spec: dict) -> dict:
        return spec if self.form is None else {**spec, "form": self.form.describe()}


@dataclass(frozen=True)
class Whole(Spec):
    """A whole number within the contract's limits."""

    name: str
    label: str
    lo: int
    hi: int
    default: object = REQUIRED
    form: Form | None = field(default=None, compare=False)

    def read(self, obj: dict, prefix: str = "") -> int:
        field = path(prefix, self.name)
        if self.name not in obj or obj[self.name] is None:
            if self.default is REQUIRED:
                raise InvalidRequest(
                    field, f"is needed: a whole number from {self.lo} to {self.hi}")
            return self.default
        value = obj[self.name]
        if not is_whole(value) or not self.lo <= value <= self.hi:
            raise InvalidRequest(field, f"must be a whole number from {self.lo} to {self.hi}")
        return value

    def describe(self) -> dict:
        spec = {"name": self.name, "label": self.label, "kind": "whole", "min": self.lo,
                "max": self.hi}
        if self.default is not REQUIRED:
            spec["default"] = self.default
        return self.described(spec)

    def starts_at(self, start: object) -> object:
        """A box starts at what it is given, else at the default the rules read when empty."""
        if start is None and is_whole(self.default):
            return self.default
        if start is not None and not (is_whole(start) and self.lo <= start <= self.hi):
            raise ValueError(f"{self.name}: a form cannot start at {start!r}")
        return start


@dataclass(frozen=True)
class Flag(Spec):
    """A yes/no switch; absent means off."""

    name: str
    label: str
    default: bool = False
    form: Form | None = field(default=None, compare=False)

    def read(self, obj: dict, prefix: str = "") -> bool:
        value = obj.get(self.name)
        if value is None:
            return self.default
        if not isinstance(value, bool):
            raise InvalidRequest(path(prefix, self.name), "must be true or false")
        return value

    def describe(self) -> dict:
        return self.described({"name": self.name, "label": self.label, "kind": "flag",
                               "default": self.default})


@dataclass(frozen=True)
class Choice(Spec):
    """One of a fixed list of words."""

    name: str
    label: str
    options: tuple[str, ...]
    default: object = REQUIRED
    form: Form | None = field(default=None, compare=False)

    def read(self, obj: dict, prefix: str = "") -> str:
        field = path(prefix, self.name)
        value = obj.get(self.name)
        if value is None:
            if self.default is REQUIRED:
                raise InvalidRequest(field, "is needed: one of " + ", ".join(self.options))
            return self.default
        if not isinstance(value, str) or value not in self.options:
            raise InvalidRequest(field, "must be one of " + ", ".join(self.options))
        return value

    def describe(self) -> dict:
        spec = {"name": self.name, "label": self.label, "kind": "choice",
                "options": list(self.options)}
        if self.default is not REQUIRED:
            spec["default"] = self.default
        return self.described(spec)

    def starts_at(self, start: object) -> object:
        if start is not None and start not in self.options:
            raise ValueError(f"{self.name}: a form cannot start at {start!r}")
        return start


@dataclass(frozen=True)
class Hex(Spec):
    """Hex digits, `shortest` to `longest` of them, read in either case and kept lowercase; absent
    is None. A code typed from another screen, so the form drops its spaces (app/forms.py)."""

    name: str
    label: str
    shortest: int
    longest: int
    form: Form | None = field(default=None, compare=False)

    def read(self, obj: dict, prefix: str = "") -> str | None:
        value = obj.get(self.name)
        if value is None:
            return None
        lowered = value.lower() if isinstance(value, str) else ""
        if not (self.shortest <= len(lowered) <= self.longest
                and set(lowered) <= set("0123456789abcdef")):
            raise InvalidRequest(path(prefix, self.name),
                                 f"must be {self.shortest} to {self.longest} hex digits "
                                 "(0-9, a-f), as the GM's page shows it")
        return lowered

    def describe(self) -> dict:
        return self.described({"name": self.name, "label": self.label, "kind": "hex",
                               "min": self.shortest, "max": self.longest, "default": None})


SEED = Whole("seed", "Seed", 0, 2**63 - 1, None)


def no_secret(request: dict) -> None:
    """Only the flip and pool checks let the GM keep the difficulty secret (contract)."""
    if Flag("secret", "Secret difficulty").read(request):
        raise InvalidRequest("secret", "this system has no secret difficulty")


def read_list(obj: dict, name: str, prefix: str, longest: int) -> list | None:
    """A JSON list field, or None when absent; at most `longest` long, so no input runs long."""
    value = obj.get(name)
    if value is None:
        return None
    if not isinstance(value, list):
        raise InvalidRequest(path(prefix, name), "must be a list")
    if len(value) > longest:
        raise InvalidRequest(path(prefix, name), f"must hold at most {longest} entries")
    return value
