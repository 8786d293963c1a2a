from ._pending import pending

POOL = pending("pool")
SWIFT = pending("swift")
