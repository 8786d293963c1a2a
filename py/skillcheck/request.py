"""JSON → checked values. Every limit of the contract is declared here once, as a field spec.

A spec both reads a field (raising InvalidRequest that names it) and describes it (label, range,
default) so the page can build and check its forms from the same numbers.
"""

from __future__ import annotations

from dataclasses import dataclass

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
class Whole:
    """A whole number within the contract's limits."""

    name: str
    label: str
    lo: int
    hi: int
    default: object = REQUIRED

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
        return spec


@dataclass(frozen=True)
class Flag:
    """A yes/no switch; absent means off."""

    name: str
    label: str
    default: bool = False

    def read(self, obj: dict, prefix: str = "") -> bool:
        value = obj.get(self.name)
        if value is None:
            return self.default
        if not isinstance(value, bool):
            raise InvalidRequest(path(prefix, self.name), "must be true or false")
        return value

    def describe(self) -> dict:
        return {"name": self.name, "label": self.label, "kind": "flag", "default": self.default}


@dataclass(frozen=True)
class Choice:
    """One of a fixed list of words."""

    name: str
    label: str
    options: tuple[str, ...]
    default: object = REQUIRED

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
        return spec


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
