"""Temporary stand-in while a system module is written; deleted when all systems land."""

from .errors import InvalidRequest
from .system import System


def pending(name: str) -> System:
    def refuse(request, *_):
        raise InvalidRequest("system", f"{name} is not available yet")
    return System(name=name, label=name, seed="", button="Roll", outcomes=(), winners=(),
                  resolve=refuse, odds=refuse)
