"""What reading storage back before every save costs a roll, on a full log (issue 13, part 1).

    PYTHONPATH=py python3 benchmarks/log_save.py

Every change to the log is now a read–modify–write: it reads the stored text back and compares
it with what this tab last read or wrote (another tab may have saved), and parses it only when it
differs; then only entries that differ from this tab's own are checked again (JSON parsing of the
whole text remains, the bulk of C).

A: `record_check` as the page does it, nobody else saving. B: the same log with the read-back
taken out (what one tab alone used to pay: serialise the entry, join, write). C: another tab
saved one entry between every two rolls, so each roll parses the whole log again.
Runs alternate A, B, C in one process; medians of the runs are printed with the ratios.
Under CPython with an in-memory store: in the browser the read-back also copies the stored text
from JavaScript, a few milliseconds for a log of megabytes.
"""

from __future__ import annotations

import statistics
import time

import skillcheck
from app.log_model import RollLog
from app.storage import MemoryStorage

ENTRIES = 2000
ROLLS = 10  # per run; C parses the whole log each roll, so it times fewer
ROLLS_C = 3
RUNS = 5
TEAM = {"system": "flip", "mode": "team", "dtn": 15, "primary": {"rank": 3, "aspect": 2},
        "secondaries": [{"rank": 2, "aspect": 1} for _ in range(2)]}


def full_log() -> MemoryStorage:
    store = MemoryStorage()
    log = RollLog(store, biggest=10**9)
    result = skillcheck.resolve({**TEAM, "seed": 1})
    for _ in range(ENTRIES):
        log.record_check(result)
    return store


class NoReadBack(RollLog):
    """B: the log as if no other tab existed."""

    def refresh(self) -> bool:
        return False


def timed(log: RollLog, other: RollLog | None, results: list[dict]) -> float:
    spent = 0.0
    for result in results:
        if other is not None:
            other.record_check(result)
        start = time.perf_counter()
        log.record_check(result)
        spent += time.perf_counter() - start
    return spent / len(results)


def main() -> None:
    stored = full_log()
    results = [skillcheck.resolve({**TEAM, "seed": 10**6 + n}) for n in range(ROLLS)]
    times: dict[str, list[float]] = {"A": [], "B": [], "C": []}
    for _ in range(RUNS):
        for name in times:
            store = MemoryStorage(dict(stored.data))
            kind = NoReadBack if name == "B" else RollLog
            log = kind(store, biggest=10**9)
            other = RollLog(store, biggest=10**9) if name == "C" else None
            times[name].append(timed(log, other, results[:ROLLS_C] if other else results))
    size = len(next(iter(stored.data.values())))
    medians = {name: statistics.median(values) * 1000 for name, values in times.items()}
    print(f"log of {ENTRIES:,} entries, {size:,} characters; ms per roll, median of {RUNS} runs")
    print(f"A read back, unchanged       {medians['A']:8.2f}")
    print(f"B no read-back (one tab)     {medians['B']:8.2f}")
    print(f"C read back, other tab saved {medians['C']:8.2f}")
    print(f"A/B {medians['A'] / medians['B']:.2f}   C/B {medians['C'] / medians['B']:.2f}")


if __name__ == "__main__":
    main()
