"""The rule systems by contract name. A new system is one module and one line here."""

from . import flip, fluke, passages, pool, swift

REGISTRY = {system.name: system for system in (
    flip.SYSTEM, pool.SYSTEM, swift.SYSTEM, fluke.SYSTEM, passages.SYSTEM,
)}
