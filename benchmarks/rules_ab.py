"""The rules package against an earlier revision of itself: resolve and odds per system, A/B.

    python3 benchmarks/rules_ab.py                   # against 001f3cf (before issue 15's step 5)
    python3 benchmarks/rules_ab.py --base main --rounds 80

The earlier py/skillcheck is taken from git into a temporary folder and imported under another
name (the package imports itself only relatively), so both run in one interpreter, on the same
requests, in alternating order (A B, B A, ...). Time is this process's CPU time, which other
programs on a busy machine disturb far less than the wall clock. A ratio above 1 means this
tree is slower.
"""

from __future__ import annotations

import argparse
import importlib
import io
import random
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "py"))

import skillcheck  # noqa: E402

HELPERS = [{"rank": 2 + i % 4, "aspect": 1 + i % 3} for i in range(8)]
REQUESTS = {
    "flip": [{"system": "flip", "rank": 4, "aspect": 2, "dtn": 16},
             {"system": "flip", "mode": "opposed", "initiator": {"rank": 20, "aspect": 3},
              "opponent": {"rank": 30, "aspect": 1}},
             {"system": "flip", "mode": "team", "dtn": 15, "gm_raises_dtn": True,
              "primary": {"rank": 5, "aspect": 3}, "secondaries": HELPERS}],
    "pool": [{"system": "pool", "trait": 10, "skill": skill, "dr": dr, "bonus": 20, "luck": 9}
             for skill in (3, 6, 9) for dr in (2, 5, 9)]
            + [{"system": "pool", "trait": 8, "skill": 5, "secret": True, "bonus": 3}],
    "swift": [{"system": "swift", "trait": trait, "skill": 5, "bonus": 2, "luck": 3}
              for trait in range(1, 11)],
    "fluke": [{"system": "fluke", "dice_count": n, "plan": 2, "insurance": 3} for n in (3, 8, 20)],
    "passages": [{"system": "passages", "base": base, "contested": base % 2 == 0}
                 for base in range(1, 100, 7)],
}


def earlier(rev: str, into: Path):
    """The package as it was at `rev`, imported as skillcheck_base."""
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", rev, "py/skillcheck"],
                             check=True, capture_output=True).stdout
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        tar.extractall(into, filter="data")
    (into / "py" / "skillcheck").rename(into / "skillcheck_base")
    sys.path.insert(0, str(into))
    return importlib.import_module("skillcheck_base")


def cpu(job) -> float:
    start = time.process_time()
    job()
    return time.process_time() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base", default="001f3cf", help="the git revision to compare with")
    parser.add_argument("--rounds", type=int, default=40)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        base = earlier(args.base, Path(folder))
        rng = random.Random(1)
        print(f"this tree (A) against {args.base} (B), {args.rounds} rounds, CPU time")
        print(f"{'system':9} {'job':8} {'n':>4} {'A best':>9} {'B best':>9} {'A/B best':>9}"
              f" {'median A/B':>11}")
        for name, requests in REQUESTS.items():
            seeded = [dict(r, seed=rng.randrange(2**32)) for r in requests for _ in range(20)]
            for job, calls in (("odds", [(p.odds, requests) for p in (skillcheck, base)]),
                               ("resolve", [(p.resolve, seeded) for p in (skillcheck, base)])):
                runs = [[], []]
                for i in range(args.rounds):
                    for side in ((0, 1) if i % 2 == 0 else (1, 0)):
                        call, todo = calls[side]
                        runs[side].append(cpu(lambda c=call, t=todo: [c(r) for r in t]))
                a, b = runs
                ratios = [x / y for x, y in zip(a, b, strict=True) if y]
                print(f"{name:9} {job:8} {len(calls[0][1]):>4} {min(a) * 1e3:>7.2f}ms"
                      f" {min(b) * 1e3:>7.2f}ms {min(a) / min(b):>9.3f}"
                      f" {statistics.median(ratios):>11.3f}")


if __name__ == "__main__":
    main()
