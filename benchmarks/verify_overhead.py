"""What `devlint verify`'s recorder adds to a training step, on the bundled examples.

For each example, fresh processes run the script's loop twice, interleaved: once plain and
once with the recorder `devlint verify` installs in its child (loss capture, transfer
accounting, step boundaries). Both carry the same minimal step clock (one optimizer
post-hook reading perf_counter), so the difference is the recorder's. The median step over
steps 2..N is reported; each pair is repeated and the best median kept.

    python benchmarks/verify_overhead.py [--repeats 3] [examples/seed_loop.py ...]
"""
from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DEFAULT = ["seed_loop.py", "mlp_classification.py", "small_cnn.py", "dict_batch.py",
           "grad_accumulation.py"]

HARNESS = r"""
import json, os, runpy, sys, time
import torch
from torch.optim.optimizer import register_optimizer_step_post_hook
mode, script, out = sys.argv[1], sys.argv[2], sys.argv[3]
if mode == "recorded":
    from devlint.verify.recorder import Recorder
    Recorder(max_steps=10**9).install()
marks = []
register_optimizer_step_post_hook(lambda *a: marks.append(time.perf_counter()))
sys.argv = [script]
sys.path[0] = os.path.dirname(script)
import io, contextlib
with contextlib.redirect_stdout(io.StringIO()):
    runpy.run_path(script, run_name="__main__")
steps = [b - a for a, b in zip(marks, marks[1:])]
json.dump(steps, open(out, "w"))
"""


def median_step(mode: str, script: Path, tmp: Path) -> float:
    out = tmp / "steps.json"
    subprocess.run([sys.executable, "-c", HARNESS, mode, str(script), str(out)], check=True,
                   env={**__import__("os").environ, "CUDA_VISIBLE_DEVICES": ""})
    return statistics.median(json.loads(out.read_text()))


def main() -> None:
    import tempfile

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("scripts", nargs="*", type=Path)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    scripts = args.scripts or [ROOT / "examples" / name for name in DEFAULT]
    print(f"{'example':<24} {'plain ms/step':>14} {'verify ms/step':>15} {'overhead':>9}")
    with tempfile.TemporaryDirectory() as tmp:
        for script in scripts:
            plain, recorded = [], []
            for _ in range(args.repeats):  # interleaved: drift hits both modes alike
                plain.append(median_step("plain", script, Path(tmp)))
                recorded.append(median_step("recorded", script, Path(tmp)))
            p, r = min(plain), min(recorded)
            print(f"{script.name:<24} {p * 1e3:>14.4f} {r * 1e3:>15.4f} {r / p - 1:>+9.1%}",
                  flush=True)


if __name__ == "__main__":
    main()
