"""The rule systems by contract name, in the order the page offers them. A new system is its
module (py/skillcheck/<name>.py, holding SYSTEM) and one line here."""

from importlib import import_module

ORDER = (
    "flip",
    "pool",
    "swift",
    "fluke",
    "passages",
)

REGISTRY = {name: import_module(f"{__package__}.{name}").SYSTEM for name in ORDER}
