"""Confirm the corpus's marks by running the scripts: on the CPU and on devlint's simulated CUDA device.

For each script with `# expect:` marks this runs

    devlint verify SCRIPT --devices cpu,cuda-sim --json

and reports, per device, the error the run raised and whether it lands on a marked line:
the failing line or one of the script's frames above it, the line where the offending
CPU tensor was created, or an `also` line (a consequence of the marked bug). A mark on the
line that builds a tensor (DEV006, DEV010, DEV012) often fails further on, where the tensor
is used: such a run prints its lines for a reader to judge. A run stops at its first error, so a script with two marks
confirms the first one it reaches; --second runs copies with the first bug fixed for the rest.

Marks this cannot confirm on a CPU machine: DEV008 (needs a checkpoint saved on a GPU),
DEV013 (needs several GPUs), DEV007 (a wasted copy per step, not an error), and scripts
that need packages or process groups this machine lacks (Lightning, NCCL).

    python benchmarks/recall/confirm.py                 # every script with marks
    python benchmarks/recall/confirm.py scripts/vae_reparam.py
    python benchmarks/recall/confirm.py --second        # second marks, on copies with the first bug fixed
"""
from __future__ import annotations

import argparse
import json
import re
import shutil
import tempfile
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from measure import SCRIPTS, read_marks  # noqa: E402


# Scripts whose GPU path is opt-in need their flag to take it.
SCRIPT_ARGS = {"dcgan_train.py": ["--cuda"]}

# --second: the first bug of a two-mark script, fixed on its own line, so the run reaches the next mark.
FIRST_FIXES = [
    ("cnn_tqdm_validation.py", 44, "model(images)", "model(images.to(device))"),
    ("dcgan_train.py", 62, "netD(real_cpu)", "netD(real_cpu.to(device))"),
    ("dqn_replay.py", 40, "dtype=torch.float32)", "dtype=torch.float32, device=device)"),
    ("greedy_decode_translation.py", 32, ".bool()", ".bool().to(src.device)"),
    ("normalize_layer.py", 10, "self.mean = torch.tensor(mean).view(1, -1, 1, 1)",
     'self.register_buffer("mean", torch.tensor(mean).view(1, -1, 1, 1))'),
    ("resnet_finetune_trainer.py", 59, "self.model(images)", "self.model(images.to(self.device))"),
    ("seq2seq_gru_attention.py", 25, "self.hidden_size)", "self.hidden_size, device=self.embedding.weight.device)"),
    ("siamese_contrastive.py", 47, "forward_once(img1)", "forward_once(img1.to(device))"),
    ("simclr_ntxent.py", 18, "dtype=torch.bool)", "dtype=torch.bool, device=z.device)"),
    ("sklearn_metrics_eval.py", 21, "probs.numpy()", "probs.cpu().numpy()"),
    ("timeseries_forecast.py", 44, "yb.unsqueeze(-1)", "yb.to(device).unsqueeze(-1)"),
    ("transformer_lm_causal_mask.py", 25, "dtype=torch.long)", "dtype=torch.long, device=idx.device)"),
    ("vae_reparam.py", 23, "torch.randn(std.size())", "torch.randn_like(std)"),
    ("wgan_gp.py", 17, "size(0), 1)", "size(0), 1, device=real_samples.device)"),
]


def write_second_stage(directory: Path) -> list[Path]:
    """Copies of the two-mark scripts with the first bug fixed and its mark removed; lines keep their numbers."""
    out = []
    for name, line, old, new in FIRST_FIXES:
        lines = (SCRIPTS / name).read_text(encoding="utf-8").splitlines(keepends=True)
        text = lines[line - 1]
        if old not in text:
            print(f"{name}:{line}: the first-bug fix no longer applies, skipped")
            continue
        lines[line - 1] = re.sub(r"\s*# expect:.*", "", text.replace(old, new, 1).rstrip("\n")) + "\n"
        path = directory / name
        path.write_text("".join(lines), encoding="utf-8")
        out.append(path)
    return out


def verify(script: Path, timeout: int) -> dict:
    exe = shutil.which("devlint")
    cmd = ([exe] if exe else [sys.executable, "-m", "devlint"]) + [
        "verify", str(script), "--devices", "cpu,cuda-sim", "--json", "-q", "--max-steps", "1000", "--timeout", str(timeout)]
    if script.name in SCRIPT_ARGS:
        cmd += ["--", *SCRIPT_ARGS[script.name]]
    proc = subprocess.run(cmd, capture_output=True, text=True, cwd=script.parent)
    try:
        return json.loads(proc.stdout)
    except json.JSONDecodeError:
        return {"devices": [], "failure": (proc.stderr or proc.stdout).strip().splitlines()[-1:]}


def lines_of(error: dict, script: Path) -> set[int]:
    lines = set()
    for frame in error.get("user_frames") or [error.get("frame") or {}]:
        if frame and Path(frame.get("path", "")).resolve() == script:
            lines.add(int(frame["line"]))
    origin = error.get("cpu_origin") or {}
    if origin and Path(origin.get("path", "")).resolve() == script:
        lines.add(int(origin["line"]))
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("paths", nargs="*", type=Path)
    parser.add_argument("--timeout", type=int, default=120, help="seconds per device (default 120)")
    parser.add_argument("--second", action="store_true",
                        help="run the two-mark scripts with their first bug fixed, to confirm the second mark")
    args = parser.parse_args(argv)
    if args.second:
        tmp = Path(tempfile.mkdtemp(prefix="recall-second-"))
        scripts = write_second_stage(tmp)
    else:
        scripts = sorted(p.resolve() for p in args.paths) if args.paths else sorted(SCRIPTS.glob("*.py"))
    confirmed_marks = 0
    for script in scripts:
        expect, also = read_marks(script)
        if not expect:
            continue
        marked_lines = {line for line, _ in expect}
        # A run that fails on an `also` line (a consequence of a marked bug) confirms that bug.
        consequence = {line for line, _ in also}
        result = verify(script, args.timeout)
        if not result.get("devices"):
            print(f"{script.name}: not run ({' '.join(result.get('failure', []))})")
            continue
        hits = set()
        for dev in result["devices"]:
            error = dev.get("error")
            if not error:
                print(f"{script.name} [{dev['device']}]: {dev['status']}, no error")
                continue
            where = sorted(lines_of(error, script))
            on_mark = sorted(set(where) & marked_lines)
            if not on_mark and set(where) & consequence:
                on_mark = sorted(marked_lines)
            hits |= set(on_mark)
            first = error.get("message", "").splitlines()[0][:110]
            verdict = f"confirms line {', '.join(map(str, on_mark))}" if on_mark else f"raised at lines {where}, no mark"
            print(f"{script.name} [{dev['device']}]: {error.get('type')}: {first} -> {verdict}")
        confirmed_marks += len({(l, c) for l, c in expect if l in hits})
    print(f"\nmarks confirmed by a run: {confirmed_marks}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
