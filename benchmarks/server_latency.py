"""How long the editor waits for devlint's squiggles: the time from a `didChange` to the
`publishDiagnostics` for that version, on a training file of about 1,000 lines.

    python benchmarks/server_latency.py [--lines 1000] [--rounds 20] [--debounce-ms 150 75 ...]

The file is the bundled examples (training loops, one of them buggy) joined until it has
`--lines` lines. A real `devlint server` process is driven over stdio by the test client;
each round is one keystroke (an incremental edit to a comment, so the text is new and the
memo cannot answer) and then a wait for its diagnostics. The debounce is part of the figure,
as it is of what the user sees. After each round the engine analyses the same text in this
process, so the analysis alone and the rest (protocol, scheduling, positions) are paired
with the round they belong to: the machine's speed drifts between minutes.

With several `--debounce-ms` values, one server per value runs in turn, round by round
(interleaved, so each sees the same machine), and each also gets typing bursts: `--burst`
keys `--interval-ms` apart (a fast typist), then the wait from the last key to its
diagnostics: a shorter debounce starts analyses of versions the next key makes stale, and
the last key's may wait behind one of them.
"""
from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Optional

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))

import os  # noqa: E402

from devlint.core.selection import Selection  # noqa: E402
from devlint.lint.analyze import analyze_source  # noqa: E402
from devlint.lint.parse import PieceParser  # noqa: E402
from devlint.server.client import Client, server_command  # noqa: E402
from devlint.server.lsp import DEBOUNCE_S  # noqa: E402


def training_file(lines: int) -> str:
    """Whole example scripts, in a stable order, until the text has at least `lines` lines."""
    scripts = [p.read_text(encoding="utf-8") for p in sorted((ROOT / "examples").glob("*.py"))]
    parts: list[str] = []
    count = 0
    while count < lines:
        script = scripts[len(parts) % len(scripts)]
        parts.append(script)
        count += script.count("\n")
    return "".join(parts) + "# edited: "


class Session:
    """One `devlint server` with `debounce_ms`, the training file open."""

    def __init__(self, root: Path, text: str, debounce_ms: float) -> None:
        self.debounce_s = debounce_ms / 1000
        self.path = root / f"train_{int(debounce_ms)}.py"
        self.path.write_text(text, encoding="utf-8")
        self.uri = self.path.as_uri()
        self.text, self.version = text, 1
        env = {**os.environ, "DEVLINT_DEBOUNCE_MS": str(debounce_ms)}
        self.client = Client(server_command(), cwd=root, env=env)
        self.client.initialize(root)
        start = time.perf_counter()
        self.client.open(self.uri, text)
        self.findings = len(self.client.diagnostics(self.uri, 1))
        self.open_s = time.perf_counter() - start
        self.pieces = PieceParser()  # the analysis alone, as the server's worker runs it
        analyze_source(text, str(self.path), Selection(), pieces=self.pieces, gate_fixes=False)
        self.latencies: list[float] = []
        self.analyses: list[float] = []
        self.bursts: list[float] = []

    def round(self) -> None:
        self.version += 1
        self.text += "x"  # typed at the end of the last line, a comment
        self.latencies.append(keystroke(self.client, self.uri, self.version, self.text))
        start = time.perf_counter()
        analyze_source(self.text, str(self.path), Selection(), pieces=self.pieces, gate_fixes=False)
        self.analyses.append(time.perf_counter() - start)

    def burst(self, keys: int, interval_s: float) -> None:
        """`keys` keys `interval_s` apart without waiting; then the wait for the last one's."""
        for _ in range(keys):
            self.version += 1
            self.text += "y"
            line = self.text.count("\n")
            column = len(self.text) - self.text.rfind("\n") - 1
            at = {"line": line, "character": column - 1}
            sent = time.perf_counter()
            self.client.change(self.uri, self.version, "", edit={"range": {"start": at, "end": at}, "text": "y"})
            time.sleep(max(0.0, interval_s - (time.perf_counter() - sent)))
        start = time.perf_counter()
        self.client.diagnostics(self.uri, self.version)
        self.bursts.append(time.perf_counter() - start + interval_s)  # from the last key

    def close(self) -> Optional[int]:
        try:
            return self.client.shutdown()
        finally:
            self.client.close()


def measure(text: str, rounds: int, debounces: list, burst: int = 0,
            interval_s: float = 0.12) -> dict:
    with tempfile.TemporaryDirectory() as directory:
        root = Path(directory)
        sessions = [Session(root, text, d) for d in debounces]
        try:
            for _ in range(rounds):
                for session in sessions:
                    session.round()
            for _ in range(3 if burst else 0):
                for session in sessions:
                    session.burst(burst, interval_s)
        finally:
            statuses = [session.close() for session in sessions]
    return {"sessions": sessions, "exit": max(s or 0 for s in statuses)}


def keystroke(client: Client, uri: str, version: int, text: str) -> float:
    """One character typed at the end of the text: seconds until its diagnostics arrive."""
    line = text.count("\n")
    column = len(text) - text.rfind("\n") - 1
    at = {"line": line, "character": column - 1}
    start = time.perf_counter()
    client.change(uri, version, "", edit={"range": {"start": at, "end": at}, "text": "x"})
    client.diagnostics(uri, version)
    return time.perf_counter() - start


def ms(seconds: float) -> float:
    return round(seconds * 1000, 1)


def summary(session: "Session", rounds: int) -> dict:
    latencies = sorted(session.latencies)
    rest = [total - session.debounce_s - alone
            for total, alone in zip(session.latencies, session.analyses)]
    found = {
        "debounce_ms": ms(session.debounce_s),
        "didOpen_to_diagnostics_ms": ms(session.open_s),
        "didChange_to_diagnostics_ms": {
            "median": ms(statistics.median(latencies)),
            "p90": ms(latencies[int(0.9 * (len(latencies) - 1))]),
            "min": ms(latencies[0]),
            "max": ms(latencies[-1]),
        },
        "analysis_alone_median_ms": ms(statistics.median(session.analyses)),
        "rest_median_ms": ms(statistics.median(rest)),
    }
    if session.bursts:
        found["burst_last_key_to_diagnostics_ms"] = {
            "median": ms(statistics.median(session.bursts)), "max": ms(max(session.bursts))}
    return found


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lines", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--debounce-ms", type=float, nargs="+", default=[DEBOUNCE_S * 1000])
    parser.add_argument("--burst", type=int, default=0, help="keys per typing burst (0: none)")
    parser.add_argument("--interval-ms", type=float, default=120.0)
    args = parser.parse_args()
    text = training_file(args.lines)
    result = measure(text, args.rounds, args.debounce_ms, args.burst, args.interval_ms / 1000)
    sessions = result["sessions"]
    report = {
        "lines": text.count("\n") + 1,
        "findings": sessions[0].findings,
        "rounds": args.rounds,
        "runs": [summary(s, args.rounds) for s in sessions],
        "server_exit_status": result["exit"],
    }
    print(json.dumps(report, indent=2))
    return 0 if result["exit"] == 0 else 1


if __name__ == "__main__":
    raise SystemExit(main())
