"""The long fuzz campaign: `python scripts/fuzz.py --examples 100000 [--seconds N]`.

Half the programs come from hypothesmith (grammar and libcst nodes), half are mutated
fixtures; every input must satisfy devlint.fuzzing.check_invariants. Crashes are written to
fuzz-crashes/ (one file each) and counted; the figures print at the end."""
from __future__ import annotations

import argparse
import random
import sys
import time
import traceback
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))

from devlint.lint.analyze import analyze_source  # noqa: E402
from devlint.fuzzing import check_invariants, mutate  # noqa: E402


def generated(count: int, seed: int):
    import hypothesmith
    from hypothesis import HealthCheck, given, settings

    found: list[str] = []

    @settings(max_examples=count, deadline=None, database=None,
              suppress_health_check=list(HealthCheck))
    @given(hypothesmith.from_grammar() | hypothesmith.from_node())
    def collect(source: str) -> None:
        found.append(source)

    collect()
    return found


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--examples", type=int, default=10_000)
    parser.add_argument("--seconds", type=float, default=float("inf"))
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    fixtures = [p.read_text(encoding="utf-8") for p in sorted((ROOT / "fixtures").rglob("*.py"))]
    crashes_dir = ROOT / "fuzz-crashes"
    start = time.monotonic()
    tried = crashes = 0
    batch = max(1, min(500, args.examples // 20))
    while tried < args.examples and time.monotonic() - start < args.seconds:
        sources = [mutate(rng.choice(fixtures), rng) for _ in range(batch)]
        sources += generated(batch, rng.randrange(2**32))
        for source in sources:
            tried += 1
            try:
                check_invariants(source, analyze_source(source, "fuzz.py"))
            except BaseException:  # noqa: BLE001 - every failure is a finding of the campaign
                crashes += 1
                crashes_dir.mkdir(exist_ok=True)
                (crashes_dir / f"crash-{crashes:04d}.py").write_text(source, encoding="utf-8")
                (crashes_dir / f"crash-{crashes:04d}.txt").write_text(traceback.format_exc())
            if tried >= args.examples:
                break
        print(f"\r{tried} programs, {crashes} failures, {time.monotonic() - start:.0f} s",
              end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    print(f"programs tried: {tried}\nfailures: {crashes}\nseconds: {time.monotonic() - start:.1f}")
    return 1 if crashes else 0


if __name__ == "__main__":
    sys.exit(main())
