from ._pending import pending

SYSTEM = pending("flip")
