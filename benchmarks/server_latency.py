"""How long the editor waits for devlint's squiggles: the time from a `didChange` to the
`publishDiagnostics` for that version, on a training file of about 1,000 lines.

    python benchmarks/server_latency.py [--lines 1000] [--rounds 20]

The file is the bundled examples (training loops, one of them buggy) joined until it has
`--lines` lines. A real `devlint server` process is driven over stdio by the test client;
each round is one keystroke (an incremental edit to a comment, so the text is new and the
memo cannot answer) and then a wait for its diagnostics. The debounce is part of the figure,
as it is of what the user sees; the analysis alone (the engine in this process, same text)
and the rest (protocol, scheduling, positions) are reported next to it.
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
    return "".join(parts) + "# edited: \n"


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
            last = text.count("\n") - 1  # the `# edited:` line, 0-based
            column = len("# edited: ")
            latencies = []
            for version in range(2, rounds + 2):
                edit = {"range": {"start": {"line": last, "character": column},
                                  "end": {"line": last, "character": column}}, "text": "x"}
                start = time.perf_counter()
                client.change(uri, version, "", edit=edit)
                client.diagnostics(uri, version)
                latencies.append(time.perf_counter() - start)
                column += 1
            status = client.shutdown()
        finally:
            client.close()
    return {"open_s": open_s, "latencies_s": latencies, "findings": findings, "exit": status}


def analysis_alone(text: str, rounds: int) -> float:
    times = []
    for round_ in range(rounds):
        edited = text + f"# {round_}\n"  # a new text, as in the server
        start = time.perf_counter()
        analyze_source(edited, "train.py")
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lines", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=20)
    args = parser.parse_args()
    text = training_file(args.lines)
    result = measure(text, args.rounds)
    latencies = sorted(result["latencies_s"])
    median = statistics.median(latencies)
    alone = analysis_alone(text, max(5, args.rounds // 2))
    report = {
        "lines": text.count("\n"),
        "findings": result["findings"],
        "rounds": args.rounds,
        "didOpen_to_diagnostics_ms": round(result["open_s"] * 1000, 1),
        "didChange_to_diagnostics_ms": {
            "median": round(median * 1000, 1),
            "p90": round(latencies[int(0.9 * (len(latencies) - 1))] * 1000, 1),
            "min": round(latencies[0] * 1000, 1),
            "max": round(latencies[-1] * 1000, 1),
        },
        "of_which_debounce_ms": DEBOUNCE_S * 1000,
        "analysis_alone_median_ms": round(alone * 1000, 1),
        "rest_median_ms": round((median - DEBOUNCE_S - alone) * 1000, 1),
        "server_exit_status": result["exit"],
    }
    print(json.dumps(report, indent=2))
    return 0 if result["exit"] == 0 else 1


if __name__ == "__main__":
    raise SystemExit(main())
