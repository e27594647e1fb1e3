"""Realistic training scripts and what `devlint verify` must say about each (issue 21).

Each case runs on a copy of scripts/ (the user's tree, with `files` added), by the default
devices of a machine without a GPU (cpu and the simulated cuda). The expected exit status:
0 ok, 1 a device failed, 3 placement not checked, 4 a device line never ran on the
accelerator (PARTIAL). `says` must appear in the text report.

    python tests/verify_cases/cases.py [NAME ...]    prints the verdict table (markdown)
"""
from __future__ import annotations

import contextlib
import hashlib
import importlib.util
import io
import os
import shutil
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

SCRIPTS = Path(__file__).resolve().parent / "scripts"


@dataclass(frozen=True)
class Case:
    target: str  # a script under scripts/, or "-m module"
    expect: int
    why: str
    args: tuple[str, ...] = ()  # after `--`
    options: tuple[str, ...] = ()  # verify's own
    says: tuple[str, ...] = ()
    files: dict = field(default_factory=dict)  # user files made before the run
    needs: tuple[str, ...] = ()  # packages the script imports beyond torch (skipped without)

    def missing(self) -> list[str]:
        """The packages of `needs` this environment lacks (the case is skipped without them)."""
        return [name for name in self.needs if importlib.util.find_spec(name) is None]

    @property
    def name(self) -> str:
        extra = " ".join(self.options + (("--",) + self.args if self.args else ()))
        return f"{self.target} {extra}".strip()


USER_FILES = {"history.txt": "line0\n", "model.pt": "weeks of training\n",
              "logs/old.log": "important\n"}

CASES = (
    Case("argparse_device_default_cpu.py", 3,
         "--device defaults to cpu: the simulated run is a second CPU run, so nothing is checked",
         says=("placement NOT checked", "pass `-- --device {device}`", "exit 3")),
    Case("argparse_device_flag_bug.py", 1, "{device} gives each run its own: the label left "
         "on the CPU fails", args=("--device", "{device}"), says=("explained by DEV004",)),
    Case("mps_or_cpu.py", 0, "the simulated accelerator answers for mps",
         says=("held tensors on mps",)),
    Case("mps_or_cpu_bug.py", 1, "mps-or-cpu with the targets on the CPU",
         says=("mps:0 and cpu",)),
    Case("accelerator_api.py", 0, "torch.accelerator picks the simulated device",
         says=("placement checked",)),
    Case("amp_dtype_bug.py", 1, "autocast('cuda') gives float16 as on a GPU: index_put of Half "
         "into Float fails", says=("Half for the source", "amp_dtype_bug.py:20")),
    Case("amp_ok.py", 0, "AMP done right: float16 on one side within the mixed-precision gap",
         says=("autocast('cuda'): ran as CPU autocast",)),
    Case("amp_ok.py", 0, "--strict knows the mixed-precision gap", options=("--strict",)),
    Case("amp_bce_bug.py", 1, "binary_cross_entropy under autocast fails on a GPU",
         says=("unsafe to autocast",)),
    Case("bf16_cast_bug.py", 1, "the model cast to bfloat16 on the GPU only: it runs, but the "
         "losses part from the CPU's at the first step", says=(
             "cuda (simulated on CPU): diverged: losses part at step 1",
             "verdict: FAILED: cuda (simulated on CPU) diverged")),
    Case("validation_only_bug.py", 1, "loaders capped at 8 batches: validation runs and fails",
         says=("8 of 1,563 batches per epoch", "validation_only_bug.py:22")),
    Case("auto_resume.py", 4, "both runs start without checkpoint.pt: neither resumes, so the "
         "resume branch's device lines are not checked", says=(
             "never ran: lines 16-20",
             "PARTIAL: every device ran and the losses match, but device lines never ran on "
             "cuda (simulated on CPU): lines 16-18")),
    Case("makedirs_runs.py", 0, "makedirs without exist_ok succeeds in both runs"),
    Case("fresh_start_cleanup.py", 0, "rmtree, append and overwrite stay in the sandbox",
         files=USER_FILES),
    Case("torch_compile.py", 0, "torch.compile runs through dynamo's eager backend",
         says=("dynamo's eager backend",)),
    Case("torch_compile_bug.py", 1, "a CPU tensor inside a compiled forward",
         says=("explained by DEV006",)),
    Case("ddp_single_rank.py", 0, "single-rank DDP: nccl as gloo, no port", 
         says=("nccl ran as gloo",)),
    Case("hand_sgd.py", 0, "no torch.optim: stopped by backward() calls",
         says=("50 backward() calls (no optimizer)",)),
    Case("hand_sgd_bug.py", 1, "hand-written update with a CPU bias",
         says=("cuda:0 and cpu",)),
    Case("notebook_ok.ipynb", 0, "cells run in order; magics and !commands skipped; the cell "
         "after the training loop runs", says=(
             "the loop at cell 5 line 1 ended after 2 epochs", "every line of the script ran")),
    Case("notebook_bug.ipynb", 1, "the error is located by cell", says=("cell 5 line 4",)),
    Case("bare_except.py", 0, "the loop ends at --max-steps with no exception to swallow, and "
         "the print after it runs", says=("the loop at line 12 ended after 50 steps",)),
    Case("gan.py", 0, "two models, two optimizers, noise on the device"),
    Case("gan_bug.py", 1, "GAN noise drawn on the CPU", says=("explained by DEV006",)),
    Case("dict_batch.py", 0, "dict batches moved key by key"),
    Case("dict_batch_bug.py", 1, "dict batch labels left on the CPU",
         says=("explained by DEV004",)),
    Case("seq2seq.py", 0, "GRU encoder-decoder, teacher forcing"),
    Case("seq2seq_bug.py", 1, "initial hidden state on the CPU",
         says=("Input and hidden tensors are not at the same device",)),
    Case("shape_bug_everywhere.py", 1, "a shape bug fails everywhere: not a device problem",
         says=("fails on every device: not a device problem",)),
    Case("user_chose_cuda.py", 1, "the user's own --device cuda on a CPU machine, explained",
         args=("--device", "cuda"), says=("you passed `--device cuda`",)),
    Case("user_chose_cuda.py", 0, "the same script with {device}", args=("--device", "{device}")),
    Case("hang_after_steps.py", 1, "a hang: the steps done are kept and the stack is shown",
         options=("--timeout", "10"), says=("with 3 steps done", "where it hung (innermost "
                                            "first): hang_after_steps.py:15 in next_batch")),
    Case("os_exit_at_end.py", 0, "os._exit(0) is a clean end, its steps reported"),
    Case("-m trainer_pkg.train", 0, "python -m semantics: relative imports work"),
    Case("-m trainer_pkg.buggy", 1, "an error inside a module run with -m",
         says=("trainer_pkg/buggy.py:13",)),
    Case("best_checkpoint_scheduler.py", 0, "epoch-end validation, best checkpoint reloaded"),
    Case("hardcoded_cuda.py", 1, "hard-coded .cuda() fails the CPU run",
         says=("Torch not compiled with CUDA enabled", "explained by DEV001")),
    Case("dataloader_workers.py", 0, "worker processes, pin_memory, non_blocking"),
    Case("numpy_logging_bug.py", 1, ".numpy() on a device tensor",
         says=("can't convert cuda:0 device type tensor to numpy",)),
    Case("grad_accumulation.py", 0, "four backward() per optimizer step"),
    Case("default_device.py", 0, "torch.set_default_device"),
    Case("transformer_lm.py", 0, "a causal transformer with its mask on the device"),
    # Issue 28's kinds, one script each: the runtime error names the rule that explains it.
    Case("head_after_move.py", 1, "a head attached after the move stays on the CPU",
         says=("explained by DEV015",)),
    Case("teacher_copied_before_move.py", 1, "a teacher deep-copied before the move",
         says=("explained by DEV016",)),
    Case("resume_optimizer_before_move.py", 1, "Adam's state restored before the move",
         says=("explained by DEV017",)),
    Case("second_gpu_ordinal.py", 1, "cuda:1 on a machine with one GPU",
         says=("explained by DEV018",)),
    Case("metric_not_moved.py", 1, "a torchmetrics metric never moved",
         says=("explained by DEV019",), needs=("torchmetrics",)),
    Case("encoding_taken_before_move.py", 1, "input ids taken before the encoding moved",
         says=("explained by DEV020",), needs=("transformers", "tokenizers")),
    Case("legacy_type_cast.py", 1, "a mask cast with .type(torch.FloatTensor)",
         says=("explained by DEV021",)),
    Case("env_device.py", 3, "the device comes from an environment variable defaulting to cpu",
         says=("environment variable",)),
)


def tree_digest(root: Path) -> dict[str, str]:
    """Every file under `root` and its content's hash: the user's tree before and after."""
    return {str(p.relative_to(root)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(root.rglob("*")) if p.is_file()}


def prepare(case: Case, workdir: Path) -> Path:
    user = workdir / "project"
    shutil.copytree(SCRIPTS, user)
    for name, text in case.files.items():
        (user / name).parent.mkdir(parents=True, exist_ok=True)
        (user / name).write_text(text)
    return user


def argv(case: Case) -> list[str]:
    target = case.target.split() if case.target.startswith("-m ") else [case.target]
    return ["verify", *target, "-q", *case.options, *(("--", *case.args) if case.args else ())]


def run_case(case: Case, workdir: Path) -> tuple[int, str, bool]:
    """(exit status, text report, whether the user's tree is byte-identical afterwards)."""
    from devlint.cli import main

    user = prepare(case, workdir)
    before = tree_digest(user)
    out = io.StringIO()
    previous = os.getcwd()
    os.chdir(user)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
            code = main(argv(case))
    finally:
        os.chdir(previous)
    return code, out.getvalue(), tree_digest(user) == before


def table(names: list[str]) -> None:
    import tempfile

    from devlint.verify.runner import warm_launcher

    print("| script | expected | got | why |\n| --- | --- | --- | --- |")
    with warm_launcher():
        for case in CASES:
            if names and case.target not in names:
                continue
            missing = case.missing()
            if missing:
                print(f"| `{case.name}` | {case.expect} | skipped: no {', '.join(missing)} | "
                      f"{case.why} |", flush=True)
                continue
            with tempfile.TemporaryDirectory() as tmp:
                started = time.perf_counter()
                code, text, untouched = run_case(case, Path(tmp))
            verdict = text.strip().splitlines()[-1].replace("verdict: ", "") if text else ""
            missing = [phrase for phrase in case.says if phrase not in text]
            mark = "" if code == case.expect and untouched and not missing else " **WRONG**"
            said = "; ".join(f"says {phrase!r}" for phrase in case.says if phrase in text)
            print(f"| `{case.name}` | {case.expect} | {code}{mark}: {verdict[:70]}"
                  f"{'; ' + said if said else ''}"
                  f"{'; lacks ' + repr(missing) if missing else ''} | {case.why} "
                  f"({time.perf_counter() - started:.0f} s) |", flush=True)


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "src"))
    table(sys.argv[1:])
