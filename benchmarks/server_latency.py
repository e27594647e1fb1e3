"""How long the editor waits for devlint's squiggles: the time from a `didChange` to the
`publishDiagnostics` for that version, on a training file of about 1,000 lines.

    python benchmarks/server_latency.py [--lines 1000] [--rounds 20]

The file is the bundled examples (training loops, one of them buggy) joined until it has
`--lines` lines. A real `devlint server` process is driven over stdio by the test client;
each round is one keystroke (an incremental edit to a comment, so the text is new and the
memo cannot answer) and then a wait for its diagnostics. The debounce is part of the figure,
as it is of what the user sees. After each round the engine analyses the same text in this
process, so the analysis alone and the rest (protocol, scheduling, positions) are paired
with the round they belong to: the machine's speed drifts between minutes.
"""
from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))

from devlint.lint.analyze import analyze_source  # noqa: E402
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


def measure(text: str, rounds: int) -> dict:
    with tempfile.TemporaryDirectory() as directory:
        root = Path(directory)
        path = root / "train.py"
        path.write_text(text, encoding="utf-8")
        uri = path.as_uri()
        client = Client(server_command(), cwd=root)
        try:
            client.initialize(root)
            start = time.perf_counter()
            client.open(uri, text)
            findings = len(client.diagnostics(uri, 1))
            open_s = time.perf_counter() - start
            latencies, analyses = [], []
            for version in range(2, rounds + 2):
                text = text + "x"  # typed at the end of the last line, a comment
                latencies.append(keystroke(client, uri, version, text))
                start = time.perf_counter()
                analyze_source(text, str(path), gate_fixes=False)  # as the server does
                analyses.append(time.perf_counter() - start)
            status = client.shutdown()
        finally:
            client.close()
    return {"open_s": open_s, "latencies_s": latencies, "analyses_s": analyses,
            "findings": findings, "exit": status}


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


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lines", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=20)
    args = parser.parse_args()
    text = training_file(args.lines)
    result = measure(text, args.rounds)
    latencies = sorted(result["latencies_s"])
    rest = [total - DEBOUNCE_S - alone
            for total, alone in zip(result["latencies_s"], result["analyses_s"])]
    report = {
        "lines": text.count("\n") + 1,
        "findings": result["findings"],
        "rounds": args.rounds,
        "didOpen_to_diagnostics_ms": ms(result["open_s"]),
        "didChange_to_diagnostics_ms": {
            "median": ms(statistics.median(latencies)),
            "p90": ms(latencies[int(0.9 * (len(latencies) - 1))]),
            "min": ms(latencies[0]),
            "max": ms(latencies[-1]),
        },
        "of_which_debounce_ms": ms(DEBOUNCE_S),
        "analysis_alone_median_ms": ms(statistics.median(result["analyses_s"])),
        "rest_median_ms": ms(statistics.median(rest)),
        "server_exit_status": result["exit"],
    }
    print(json.dumps(report, indent=2))
    return 0 if result["exit"] == 0 else 1


if __name__ == "__main__":
    raise SystemExit(main())
