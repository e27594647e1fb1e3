"""What `devlint verify` prints: a table per device, the failures mapped to rules, and the
seed's speedup verdict in plain words; or all of it as JSON; or a PNG."""
from __future__ import annotations

import itertools
import json
import os
import re
from dataclasses import asdict
from pathlib import Path
from typing import Optional

from devlint.lint.report.columns import aligned
from devlint.verify.coverage import ranges
from devlint.verify.errors import (
    CROSS_GPU, FOREIGN_GPU_CODES, NEEDS_TORCHRUN, OTHER, SHARED_GPU, TORCHRUN_HINT, classify,
    findings_at_site,
)
from devlint.verify.gpu_only import flag_hint
from devlint.verify.loops import BACKSTOP
from devlint.verify.profile import draw_panel, profile_dict, profile_lines, profiled
from devlint.verify.runner import describe_status, first_line
from devlint.verify.session import (
    EXIT_NOT_CHECKED, EXIT_PARTIAL, GPU_ONLY_NOTE, DeviceSummary, Verification,
)
from devlint.verify.spec import CPU, CUDA, CUDA_SIM, DEVICE_LABELS, is_simulated

DEVLINT_DIR = str(Path(__file__).resolve().parent.parent)
SLOW_TRANSFER_SHARE = 0.3  # above this, copies rather than compute decide the step time
CLEAR_SPEEDUP = 1.2


def render_text(result: Verification) -> str:
    lines = [f"devlint verify {result.options.target_name}"
             + (" (with devlint's fixes applied to a copy)" if result.options.fix else "")]
    lines += isolation_lines(result) + [""]
    lines += _table(result)
    lines.append("")
    lines += _run_notes(result)
    common = result.common_failure()
    if common is not None:
        lines += _common_failure_lines(common, result)
    lines += _all_device_notes(result, common is not None)
    lines += _fix_notes(result)
    lines += profile_lines(result, location, row_label)
    lines += speed_verdicts(result)
    lines.append("")
    lines.append("verdict: " + verdict_line(result))
    return "\n".join(_squeeze_blank_lines(lines)) + "\n"


def verdict_line(result: Verification) -> str:
    if result.interrupted:
        return interrupted_verdict(result)
    common = result.common_failure()
    if common is not None:
        return "FAILED: " + common_cause(common, result)
    own = own_failure(result)
    if own:
        return "FAILED: " + own
    if not result.ok:
        return "FAILED: " + _failure_summary(result) + (
            "; no CPU baseline: this script needs a GPU" if result.gpu_only else "")
    if result.gpu_only:
        which = ", ".join(row_label(s.run) for s in result.devices if s.run.device != CPU)
        checked = all(s.placement == "checked" for s in result.devices if s.run.device != CPU)
        return (f"OK (no CPU baseline: this script needs a GPU): {which} ran"
                + (" and placement was checked" if checked else "") + "; losses not compared")
    if result.unchecked:
        which = ", ".join(label(s.run.device) for s in result.unchecked)
        return (f"NOT CHECKED: every device ran and the losses match, but placement was not "
                f"checked on {which} (exit {EXIT_NOT_CHECKED})")
    unrun = result.unrun_device_lines
    if unrun:
        parts = [f"{_device_label(device)}: {_lines(lines, result)}"
                 for device, lines in unrun.items()]
        return (f"PARTIAL: every device ran and the losses match, but device lines never ran on "
                f"{'; '.join(parts)}, so they were not checked (exit {EXIT_PARTIAL})")
    if any(s.placement == "checked" for s in result.devices):
        foreign = sorted({s.run.rank for s in result.devices if s.foreign_gpus})
        warning = "; warning: rank{} {} put tensors on another rank's GPU (see above)".format(
            "s" if len(foreign) > 1 else "", ", ".join(map(str, foreign))) if foreign else ""
        return "OK: every device ran, the losses match and placement was checked" + warning
    return "OK: every device ran and the losses match"


def interrupted_verdict(result: Verification) -> str:
    """A partial report: which runs had failed already, and that the rest was cut short."""
    failed = [s for s in result.devices if s.run.status not in ("interrupted", "torn-down")
              and not s.ok and s.placement != "unsupported"]
    said = f"INTERRUPTED by {result.interrupted}: a partial report of what each device did"
    if failed:
        said += "; already failed: " + ", ".join(f"{row_label(s.run)} ({_failed_at(s, result)})"
                                                 for s in failed)
    return said


def _failed_at(summary: DeviceSummary, result: Verification) -> str:
    error = summary.run.error or {}
    frame = error.get("frame")
    if not error:
        return summary.run.status
    return error.get("type", "error") + (
        f" at {location(frame['path'], frame['line'], result)}" if frame else "")


def own_failure(result: Verification) -> str:
    """The cpu run failed with an error of the script's own (no device in it) and the
    simulated GPU could not run that far: the failure is the script's, found on the CPU path
    (`loss.data[0]` on a 0-dim tensor after a `torch.cuda.nvtx` call cuda-sim cannot run)."""
    base = result.summary(CPU)
    gaps = [s for s in result.devices if s.simulator_gap]
    if base is None or base.run.status != "error" or not gaps or any(
            not s.ok and s.placement != "unsupported" for s in result.devices if s is not base):
        return ""
    error = base.run.error or {}
    if classify(error.get("type", ""), error.get("message", "")) != OTHER:
        return ""
    frame = error.get("frame")
    at = f" at {location(frame['path'], frame['line'], result)}" if frame else ""
    return (f"the script's own failure, on cpu{at} ({error.get('type')}: "
            f"{first_line(error.get('message', ''))}); {gap_words(gaps[0])}")


def label(device: str) -> str:
    return DEVICE_LABELS.get(device, device)


def _device_label(key: str) -> str:
    """`cuda-sim rank 1` (unrun_device_lines' key) in the table's words."""
    device, _, rank = key.partition(" rank ")
    return label(device) + (f" rank {rank}" if rank else "")


def _lines(lines: list[int], result: Verification) -> str:
    return ", ".join(_span(first, last, result) for first, last in ranges(lines))


def row_label(run) -> str:
    """`cpu`, or `cuda (simulated on CPU) rank 1` under torchrun."""
    return label(run.device) + (f" rank {run.rank}" if run.rank is not None else "")


def isolation_lines(result: Verification) -> list[str]:
    """Which isolation the runs had and what it did not cover, as each run reported it (a
    run that reported nothing claims nothing)."""
    kinds: dict[str, list[str]] = {}
    for summary in result.devices:
        if summary.run.isolation:
            key = json.dumps(summary.run.isolation, sort_keys=True)
            kinds.setdefault(key, []).append(row_label(summary.run))
    out = []
    for key, runs in kinds.items():
        info = json.loads(key)
        which = "" if len(kinds) == 1 else f" ({', '.join(runs)})"
        folders = ", ".join(info.get("folders", []))
        if info.get("kind") == "overlay":
            head = (f"isolation{which}: each run had its own mount namespace, with a "
                    f"copy-on-write overlay over {folders}")
        else:
            head = (f"isolation{which}: COPIES ONLY, no overlay ({info.get('reason')}): "
                    f"{folders}")
        out += [head, f"  {info.get('covered')}; {info.get('not_covered')}"]
    return out


def distributed(result: Verification) -> bool:
    return any(s.run.rank is not None for s in result.devices)


def _squeeze_blank_lines(lines: list[str]) -> list[str]:
    return [line for i, line in enumerate(lines) if line or i == 0 or lines[i - 1]]


def _table(result: Verification) -> list[str]:
    ranks = distributed(result)
    header = ("device", *(("rank",) if ranks else ()), "status", "steps", "step (median)",
              "transfer", "final loss", "max rel diff", "placement", "verdict")
    rows = [header]
    for s in result.devices:
        rows.append((
            label(s.run.device),
            *((str(s.run.rank),) if ranks else ()),
            s.run.status,
            str(len(s.run.steps)),
            _ms(s.median_step_s),
            _percent(s.transfer_share),
            _number(s.final_loss),
            "-" if s.comparison is None else _number(s.comparison.max_rel_diff, "{:.1e}"),
            s.placement or "-",
            _verdict(s),
        ))
    return aligned(rows)


def result_gpu_only(summary: DeviceSummary) -> bool:
    return summary.run.device == CPU and summary.run.error is not None and bool(
        summary.explanation is not None and summary.explanation.note == GPU_ONLY_NOTE)


def gpu_only_line(result: Verification) -> str:
    """No CPU baseline: where the script chose CUDA, and how to give it a CPU run."""
    choice = result.gpu_only
    if choice is None:
        return ""
    line = (f"no CPU baseline: this script needs a GPU: it chose CUDA at "
            f"{location(choice.path, choice.line, result)} (`{choice.code}`); the accelerator "
            f"rows are judged alone")
    hint = flag_hint(choice, result.options.target_name)
    if hint:
        line += f"; for a CPU baseline, give each run its own device: {hint}"
    return line


def _verdict(summary: DeviceSummary) -> str:
    if summary.placement == "unsupported":
        return "unsupported"
    if result_gpu_only(summary):
        return "needs a GPU"
    if summary.run.status in ("torn-down", "interrupted"):
        return summary.run.status.replace("-", " ")
    if not summary.run.ran:
        return "failed"
    if summary.comparison is None:
        return "baseline" if summary.run.device == CPU else "ran"
    return summary.comparison.verdict


# -- what every run shares: the data cut, the lines that never ran -------------------------------
def _run_notes(result: Verification) -> list[str]:
    lines = [line for line in (gpu_only_line(result), torchrun_line(result), cut_line(result),
                               never_run_line(result)) if line]
    return lines + [""] if lines else []


def torchrun_line(result: Verification) -> str:
    """How the ranks ran: "torchrun: 2 ranks per device, world size 2; ..."."""
    options = result.options
    if not options.nproc:
        return ""
    sizes = {s.run.world_size for s in result.devices if s.run.world_size}
    world = f", world size {sizes.pop()}" if len(sizes) == 1 else ""
    passed = f" ({' '.join(options.launcher_args)})" if options.launcher_args else ""
    simulated = (f"; cuda-sim gives each rank its own of {options.nproc} simulated GPUs"
                 if CUDA_SIM in options.devices else "")
    compared = ("no CPU baseline: each rank is judged alone" if result.gpu_only else
                "each rank is compared with the same rank on cpu")
    return (f"torchrun: {options.nproc} rank{'s' if options.nproc != 1 else ''} per node on "
            f"each device{world}{passed}; {compared}{simulated}")


def _cut_run(result: Verification):
    return next((s.run for s in result.devices if s.run.loaders or s.run.stop or s.run.cuts),
                None)


def data_cut(result: Verification) -> list[dict]:
    """What verify shortened, as data: each loader's batches per epoch (kind "loader"), each
    loop that ended at a cap (kind "loop": its line, the cap, whether its body holds device
    lines), and a backstop's stop of the run (kind "stop": the line it stopped at)."""
    run = _cut_run(result)
    if run is None:
        return []
    out: list[dict] = [{"kind": "loader", **loader} for loader in run.loaders]
    for cut in run.cuts:
        end = result.loop_ends.get(cut["line"], cut["line"])
        out.append({"kind": "loop", "line": cut["line"], "reason": cut["reason"],
                    "iterations": cut["iterations"],
                    "device": any(cut["line"] <= n <= end for n in result.device_lines)})
    if run.stop.get("reason"):
        line = (run.stop.get("at") or {}).get("line")
        out.append({"kind": "stop", "reason": run.stop["reason"], "line": line,
                    "backstop": run.stop.get("backstop") or 0,
                    "device": line in result.device_lines})
    return out


def cut_line(result: Verification) -> str:
    """What verify shortened: "data: TensorDataset 8 of 1,563 batches per epoch (cut); the loop
    at line 18 ended after 2 epochs (--max-epochs 2)"."""
    run = _cut_run(result)
    if run is None:
        return ""
    options = result.options
    parts = []
    steps = "backward() calls (no optimizer)" if run.step_kind == "backward" else "steps"
    for cut in data_cut(result):
        if cut["kind"] == "loader":
            total = cut.get("batches_per_epoch")
            of = f" of {total:,}" if total is not None else ""
            samples = cut.get("samples")
            name = cut["dataset"] + (f" ({samples:,} samples)" if samples is not None else "")
            parts.append(f"{name}: {cut['drawn']:,}{of} batches per epoch"
                         + (" (cut)" if cut.get("cut") else ""))
        elif cut["kind"] == "loop":
            after = (f"{options.max_epochs} epochs (--max-epochs {options.max_epochs})"
                     if cut["reason"] == "epochs" else
                     f"{options.max_steps} {steps} (--max-steps {options.max_steps})")
            parts.append(f"the loop at {_span(cut['line'], cut['line'], result)} ended after "
                         f"{after}")
        elif not cut["backstop"]:  # stopped at the cap itself (a swallowed stop's run)
            parts.append(f"stopped at the {cut['reason']} cap")
        else:
            count = (f"{cut['backstop']} {steps}" if cut["reason"] == "steps" else
                     f"the start of epoch {cut['backstop'] + 1}")
            where = f" at {_span(cut['line'], cut['line'], result)}" if cut["line"] else ""
            parts.append(f"the run was cut{where} at {count}: the backstop ({BACKSTOP}x "
                         f"--max-{cut['reason']}) for a loop verify cannot end (not in the "
                         f"script's own file)")
    return ("data: " + "; ".join(parts)) if parts else ""


def never_run(result: Verification) -> list[dict]:
    """The script's lines that never ran on some accelerator run (on the cpu run when it was
    the only one), as data: each line, whether it is a device line, the runs it never ran on."""
    rows = [s.run for s in result.devices if s.run.coverage and s.run.device != CPU] or [
        s.run for s in result.devices if s.run.coverage]
    missed: dict[int, list[str]] = {}
    for run in rows:
        for line in run.coverage["never_run"]:
            missed.setdefault(line, []).append(row_label(run))
    return [{"line": line, "device": line in result.device_lines,
             **({"kind": result.device_lines[line]} if line in result.device_lines else {}),
             "not_run_on": missed[line]} for line in sorted(missed)]


def never_run_line(result: Verification) -> str:
    """The script's lines that ran on no device."""
    covered = [s.run.coverage for s in result.devices if s.run.coverage]
    if not covered:
        return ""
    never = set(covered[0]["never_run"])
    for coverage in covered[1:]:
        never &= set(coverage["never_run"])
    if not never:
        return f"every line of the script ran ({covered[0]['executable']} lines)"
    spans = ranges(sorted(never))
    shown = [_span(first, last, result) for first, last in spans[:12]]
    more = f", ... ({len(spans) - 12} more)" if len(spans) > 12 else ""
    return (f"never ran: {', '.join(shown)}{more} ({len(never)} of "
            f"{covered[0]['executable']} lines)")


def _span(first: int, last: int, result: Verification) -> str:
    if result.notebook is not None:
        (cell, start), (_, end) = result.notebook.locate(first), result.notebook.locate(last)
        return f"cell {cell} line {start}" + (f"-{end}" if end != start else "")
    return f"line {first}" if first == last else f"lines {first}-{last}"


def common_cause(error: dict, result: Verification) -> str:
    """Why every device failed the same way, in words."""
    if classify(error.get("type", ""), error.get("message", "")) == NEEDS_TORCHRUN:
        return torchrun_hint(result)
    return "fails on every device: not a device problem"


def torchrun_hint(result: Verification) -> str:
    return f"{TORCHRUN_HINT} (`devlint verify --nproc 2 {result.options.target_name}`)"


def _common_failure_lines(error: dict, result: Verification) -> list[str]:
    message = error.get("message", "").strip().splitlines() or [""]
    out = [f"every device: {error.get('type', 'Error')}: {message[0]}"]
    out += [f"    {line}" for line in message[1:4]]
    frame = error.get("frame")
    if frame:
        out.append(f"    at {location(frame['path'], frame['line'], result)}: "
                   f"{(frame.get('code') or '').strip()}")
    out.append(f"    {common_cause(error, result)}")
    return out + [""]


# -- each device --------------------------------------------------------------------------------
_EVERY_RANK = "\0"  # stands for the run's name until it is known to be every rank's line


def _all_device_notes(result: Verification, common: bool) -> list[str]:
    """Each run's notes. Under torchrun a note several ranks of a device share (up to each
    rank's own GPU in it: cuda:0 on rank 0, cuda:1 on rank 1) is said once, for "every rank"
    or the ranks named: one report, not N."""
    out: list[str] = []
    for device, group in itertools.groupby(result.devices, key=lambda s: s.run.device):
        group = list(group)
        if group[0].run.rank is None or len(group) == 1:
            for summary in group:
                out += _device_notes(summary, result, common, row_label(summary.run))
            continue
        said: dict[tuple, list] = {}  # a note, its own GPU named alike -> [ranks, the text]
        for summary in group:
            own = f"cuda:{summary.run.local_rank}"
            for block in _blocks(_device_notes(summary, result, common, _EVERY_RANK)):
                key = tuple(line.replace(own, "\1") for line in block)
                said.setdefault(key, [[], block])[0].append(summary.run.rank)
        for ranks, block in said.values():
            who = ("(every rank)" if len(ranks) == len(group) else
                   f"rank {ranks[0]}" if len(ranks) == 1 else
                   "ranks " + ", ".join(map(str, ranks)))
            out += [line.replace(_EVERY_RANK, f"{label(device)} {who}") for line in block]
        out.append("")
    return out


def _blocks(lines: list[str]) -> list[tuple[str, ...]]:
    """A note and its indented continuation lines, blank lines dropped."""
    blocks: list[list[str]] = []
    for line in lines:
        if line.startswith("    ") and blocks:
            blocks[-1].append(line)
        elif line:
            blocks.append([line])
    return [tuple(block) for block in blocks]


def _device_notes(summary: DeviceSummary, result: Verification, common: bool,
                  name: str) -> list[str]:
    run = summary.run
    out = _placement_lines(summary, name) + _foreign_gpu_lines(summary, name, result)
    if run.status == "torn-down":  # its error (a peer gone) is the other rank's failure
        out.append(f"{name}: {describe_status(run)}")
    elif run.status in ("timeout", "interrupted"):
        out += _hang_lines(name, run, result)
    elif run.error and not common:
        out += _error_lines(name, summary, result)
    elif not run.ran and not common:
        out.append(f"{name}: {describe_status(run)}")
        tail = run.stderr.strip().splitlines()[-3:]
        out += [f"    {line}" for line in tail]
    swallowed = run.stop.get("swallowed_at")
    if swallowed:
        out.append(f"{name}: the stop was swallowed by `{swallowed.get('code') or 'except'}` at "
                   f"{location(swallowed['path'], swallowed['line'], result)}; verify ended the "
                   f"run there (a bare except also swallows Ctrl-C and SystemExit)")
    out += [f"{name}: {note}" for note in run.notes]
    if run.converted:
        out.append(f"{name}: {len(run.converted)} file(s) saved with tensors on the simulated "
                   f"device were rewritten with CPU locations, so a plain torch.load reads them")
    if run.kept:
        out.append(f"{name}: the files it wrote are kept in {run.kept}")
    comparison = summary.comparison
    if comparison is not None and run.ran and comparison.reason:
        out.append(f"{name}: {comparison.verdict}: {comparison.reason}")
    if comparison is not None and comparison.onset and any(comparison.onset.values()):
        parts = [f"> {t} at step {s}" for t, s in comparison.onset.items() if s]
        out.append(f"{name}: relative difference first " + ", ".join(parts))
    return out + ([""] if out else [])


def _placement_lines(summary: DeviceSummary, name: str) -> list[str]:
    state, kind = summary.placement, summary.run.accelerator.get("type", "cuda")
    if state == "checked":
        timing = ", timings not representative" if is_simulated(summary.run.device) else ""
        return [f"{name}: placement checked: the run held tensors on {kind}{timing}"]
    if state == "not checked":
        return [f"{name}: placement NOT checked: the script never put a tensor on {kind} (it "
                f"chose cpu); {summary.hint}"]
    if state == "unsupported":
        error = summary.run.error or {}
        what = f"{error.get('type')}: {first_line(error.get('message', ''))}"
        if summary.simulator_gap:
            return [f"{name}: {gap_words(summary)} ({what}); a limit of devlint's simulator, "
                    f"not a failure of the script; on a real GPU, `devlint verify --devices "
                    f"cpu,cuda` checks the rest"]
        return [f"{name}: torch.compile is not supported on the simulated device for this "
                f"script ({what}); placement not checked"]
    return []


def gap_words(summary: DeviceSummary) -> str:
    """"cuda-sim cannot run this: not checked past line 10"."""
    frame = (summary.run.error or {}).get("frame") or {}
    code = (frame.get("code") or "").strip()
    past = f" past line {frame['line']}" + (f" (`{code}`)" if code else "") if frame else ""
    return f"cuda-sim cannot run this: not checked{past}"


def _foreign_gpu_lines(summary: DeviceSummary, name: str, result: Verification) -> list[str]:
    """A rank on another rank's GPU: NCCL may not fail, but that GPU carries the memory (and
    a CUDA context) of two ranks."""
    out: list[str] = []
    if summary.explanation is not None and summary.explanation.kind in (CROSS_GPU, SHARED_GPU):
        return out  # the failure itself says so
    own = summary.run.local_rank
    for index, site in summary.foreign_gpus:
        where = f", first at {location(site['path'], site['line'], result)}" if site else ""
        out.append(f"{name}: placement warning: put tensors on cuda:{index}, the GPU of local "
                   f"rank {index}, not on its own cuda:{own}{where}")
        for finding in findings_at_site(site, FOREIGN_GPU_CODES, result.texts) if site else ():
            out.append(f"    explained by {finding.code} at "
                       f"{location(finding.path, finding.line, result)}: {finding.message}")
    return out


_HANG_FRAME = re.compile(r'^\s*File "(?P<path>[^"]+)", line (?P<line>\d+) in (?P<function>\S+)')


def _hang_lines(name: str, run, result: Verification) -> list[str]:
    """The main thread's frames from faulthandler's dump, innermost first, without the
    launcher's own, and none beyond the outermost frame of the user's code (under torchrun
    that is deep inside the launcher)."""
    out = [f"{name}: {describe_status(run)}"]
    main_thread = run.hang.split("\n\n")[0] if "Current thread" in run.hang else run.hang
    frames, last_user = [], None
    for match in map(_HANG_FRAME.match, main_thread.splitlines()):
        if match and not match["path"].startswith("<") and DEVLINT_DIR not in match["path"]:
            if _users(match["path"], result):
                last_user = len(frames)
            frames.append(f"{_frame_path(match['path'], int(match['line']), result)} "
                          f"in {match['function']}")
    if last_user is not None:
        frames = frames[:last_user + 1]
    if frames:
        shown = frames[-6:] if last_user is not None else frames[:6]
        verb = "was" if run.status == "interrupted" else "hung"
        out.append(f"    where it {verb} (innermost first): " + "; ".join(shown))
    return out


def _users(path: str, result: Verification) -> bool:
    root = str(result.target.user_root) if result.target is not None else ""
    return bool(root) and path.startswith(root.rstrip(os.sep) + os.sep) and not any(
        part in ("site-packages", "dist-packages") for part in Path(path).parts)


def _frame_path(path: str, line: int, result: Verification) -> str:
    """The user's frames as `train.py:15`, a library's from its package (`torch/...`)."""
    for marker in ("site-packages" + os.sep, "dist-packages" + os.sep):
        if marker in path:
            return f"{path.split(marker, 1)[1]}:{line}"
    return location(path, line, result)


_ORIGIN_LINE = re.compile(r"The \S+ tensor was created at ")  # shown as a line of its own


def _error_lines(name: str, summary: DeviceSummary, result: Verification) -> list[str]:
    if summary.placement == "unsupported":
        return []
    error = summary.run.error or {}
    message = error.get("message", "").strip().splitlines() or [""]
    out = [f"{name}: {error.get('type', 'Error')}: {message[0]}"]
    out += [f"    {line}" for line in message[1:4] if not _ORIGIN_LINE.match(line)]
    frame = error.get("frame")
    if frame:
        out.append(f"    at {location(frame['path'], frame['line'], result)}: "
                   f"{(frame.get('code') or '').strip()}")
    origin = error.get("cpu_origin")
    if origin:
        out.append(f"    the {origin.get('device', 'cpu')} tensor was created at "
                   f"{location(origin['path'], origin['line'], result)}")
    explanation = summary.explanation
    if explanation and explanation.findings:
        for finding in explanation.findings:
            fix = ""
            if finding.fix is not None:
                fix = (" (devlint fixed this in the copy)" if result.options.fix
                       else " (a fix exists: devlint check --fix, or verify --fix)")
            out.append(f"    explained by {finding.code} at "
                       f"{location(finding.path, finding.line, result)} "
                       f"({explanation.how}): {finding.message}{fix}")
    elif explanation and explanation.kind == NEEDS_TORCHRUN:
        out.append(f"    {torchrun_hint(result)}")
    elif explanation and explanation.note:
        out.append(f"    {explanation.note}")
    elif explanation and explanation.kind != "other":
        out.append(f"    ({explanation.kind}; no static finding explains it: "
                   f"please report it as a devlint false negative)")
    return out


def _fix_notes(result: Verification) -> list[str]:
    if not result.options.fix:
        return []
    if result.fix_error:
        return [f"fix: {result.fix_error}", ""]
    if not result.fixes_applied:
        return ["fix: devlint found nothing to fix in the script", ""]
    lines = [f"fix: ran a copy with {len(result.fixes_applied)} fix(es) applied "
             f"(your file is unchanged; `devlint check --fix --unsafe-fixes` writes them):"]
    lines += [f"    {f['code']} line {f['line']}: {f['fix']['description']}"
              for f in result.fixes_applied]
    return lines + [""]


def speed_verdicts(result: Verification) -> list[str]:
    """The seed's lesson, measured: a GPU pays off only when compute outweighs the copies."""
    out = []
    for summary in result.devices:
        if summary.run.device != CUDA or not summary.run.ran:
            continue
        line = speed_verdict(result.summary(CPU, summary.run.rank), summary)
        if line:
            out.append(line)
    return out


def speed_verdict(base: Optional[DeviceSummary], gpu: DeviceSummary) -> str:
    if base is None or not base.run.ran or not base.median_step_s or not gpu.median_step_s:
        return ""
    speedup = base.median_step_s / gpu.median_step_s
    share = gpu.transfer_share or 0.0
    head = f"speed: cuda step {_ms(gpu.median_step_s)} vs cpu {_ms(base.median_step_s)}: "
    if speedup >= CLEAR_SPEEDUP:
        return head + (f"{speedup:.1f}x faster on the GPU; compute outweighs the copies "
                       f"(transfer is {share:.0%} of a CUDA step)")
    if share >= SLOW_TRANSFER_SHARE:
        return head + (f"{speedup:.2f}x: transfer is {share:.0%} of a CUDA step: small model and "
                       f"batches; expect little or no speedup (bigger batches, pinned memory "
                       f"with non_blocking=True, or data kept on the GPU would help)")
    return head + (f"{speedup:.2f}x: the step is too small to keep the GPU busy (kernel launch "
                   f"overhead dominates); expect little or no speedup at this model size")


def _failure_summary(result: Verification) -> str:
    """`cuda failed`, or under torchrun `cuda (simulated on CPU) ranks 0, 1 error`."""
    bad: dict[tuple[str, str], list] = {}
    for s in result.devices:
        if s.placement == "unsupported":
            continue
        if s.run.status == "torn-down":
            continue  # stopped because another rank failed: that rank is named
        if not s.run.ran:
            what = s.run.status
        elif s.comparison is not None and not s.comparison.ok:
            what = s.comparison.verdict
        else:
            continue
        bad.setdefault((s.run.device, what), []).append(s.run.rank)
    parts = []
    for (device, what), ranks in bad.items():
        if result.gpu_only and device == CPU:
            continue
        named = "" if ranks == [None] else (
            f" rank {ranks[0]}" if len(ranks) == 1 else " ranks " + ", ".join(map(str, ranks)))
        parts.append(f"{label(device)}{named} {what}")
    return ", ".join(parts) or "nothing ran"


def location(path: str, line: int, result: Verification) -> str:
    """`train.py:15` as the user would type it; a notebook's line by its cell; under --fix,
    the user's line (the session mapped it back) of the script that ran as a fixed copy."""
    target = result.target
    shown = display_path(path)
    if target is not None and path == str(target.path):
        if result.notebook is not None:
            cell, inner = result.notebook.locate(line)
            return f"{shown} cell {cell} line {inner}"
        if result.options.fix and result.fixes_applied:
            return f"{shown}:{line} (in the fixed copy)"
    return f"{shown}:{line}"


def display_path(path: str) -> str:
    try:
        relative = os.path.relpath(path)
    except ValueError:
        return path
    return path if relative.startswith("..") else relative


def _ms(seconds: Optional[float]) -> str:
    if seconds is None:
        return "-"
    return f"{seconds * 1000:.3g} ms"


def _percent(share: Optional[float]) -> str:
    return "-" if share is None else f"{share:.0%}"


def _number(value: Optional[float], fmt: str = "{:.6g}") -> str:
    return "-" if value is None else fmt.format(value)


def render_json(result: Verification) -> str:
    return json.dumps(to_dict(result), indent=2) + "\n"


def to_dict(result: Verification) -> dict:
    options = result.options
    return {
        "script": str(options.script) if options.script else None,
        "module": options.module or None,
        "args": options.args,
        "ok": result.ok,
        "exit_code": result.exit_code,
        "verdict": verdict_line(result),
        "options": {"devices": options.devices, "max_steps": options.max_steps,
                    "max_batches": options.max_batches, "max_epochs": options.max_epochs,
                    "seed": options.seed, "strict": options.strict, "fix": options.fix,
                    "timeout": options.timeout, "profile": options.profile},
        "data_cut": data_cut(result),
        "never_run": never_run(result),
        "unchecked_device_lines": result.unrun_device_lines,
        "fails_on_every_device": result.common_failure() is not None,
        "gpu_only": {**result.gpu_only.to_dict(), "says": gpu_only_line(result)}
        if result.gpu_only else None,
        "fixes_applied": result.fixes_applied,
        "fix_error": result.fix_error,
        "devices": [_device_dict(s) for s in result.devices],
        "speed": speed_verdicts(result),
    }


def _device_dict(summary: DeviceSummary) -> dict:
    run = summary.run
    return {
        "device": run.device,
        "label": DEVICE_LABELS.get(run.device, run.device),
        "rank": run.rank,
        "local_rank": run.local_rank,
        "world_size": run.world_size,
        "stopped_because": run.blame or None,
        "status": run.status,
        "ok": summary.ok,
        "device_name": run.device_name,
        "torch_version": run.torch_version,
        "exit_code": run.exit_code,
        "wall_s": run.wall_s,
        "steps": run.steps,
        "losses": run.losses,
        "setup_transfers": run.setup,
        "median_step_s": summary.median_step_s,
        "transfer_share": summary.transfer_share,
        "final_loss": summary.final_loss,
        "device_rng": run.device_rng,
        "mixed_precision": run.mixed_precision,
        "placement": summary.placement,
        "placement_hint": summary.hint,
        "accelerator": run.accelerator,
        "step_kind": run.step_kind,
        "epoch_starts": run.epoch_starts,
        "loaders": run.loaders,
        "stop": run.stop,
        "cuts": run.cuts,
        "coverage": run.coverage,
        "notes": run.notes,
        "converted": run.converted,
        "hang_stack": run.hang,
        "kept": run.kept,
        "isolation": run.isolation,
        "comparison": asdict(summary.comparison) if summary.comparison else None,
        "error": run.error,
        "explanation": summary.explanation.to_dict() if summary.explanation else None,
        "stdout_tail": run.stdout,
        "stderr_tail": run.stderr,
        **profile_dict(summary),
    }


SIMULATED_LABEL = "simulated, not representative"


def write_plot(result: Verification, path: str) -> None:
    fig = plot_figure(result)
    import matplotlib.pyplot as plt

    fig.savefig(path, dpi=110)
    plt.close(fig)


def plot_figure(result: Verification):
    """Loss curves overlaid, with where each epoch began and where verify cut the run; and
    each device's median step split into compute, model copies and batch copies, a simulated
    device's bar labelled as such on the figure itself (its timings are the CPU's)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    panels = 3 if profiled(result) else 2
    fig, (curves, bars, *profile) = plt.subplots(1, panels, figsize=(5.5 * panels, 4.6))
    for summary in result.devices:
        losses = summary.run.losses
        if losses:
            steps = range(1, len(losses) + 1)
            curves.plot(steps, [v if v is not None else float("nan") for v in losses],
                        label=row_label(summary.run),
                        linestyle="--" if is_simulated(summary.run.device) else "-")
    _mark_epochs_and_cut(curves, result)
    curves.set_xlabel("optimizer step")
    curves.set_ylabel("loss")
    curves.set_title("loss per step")
    curves.legend()
    labels, compute, model, batch, simulated = [], [], [], [], []
    for summary in result.devices:
        if not summary.run.steps:
            continue
        step = summary.median_step_s or 0.0
        m, b = summary.median_part("model_time_s"), summary.median_part("batch_time_s")
        labels.append(row_label(summary.run))
        model.append(m * 1000)
        batch.append(b * 1000)
        compute.append(max(step - m - b, 0.0) * 1000)
        simulated.append(is_simulated(summary.run.device))
    bars.bar(labels, compute, label="compute")
    bars.bar(labels, model, bottom=compute, label="model transfer")
    bars.bar(labels, batch, bottom=[c + m for c, m in zip(compute, model)], label="batch transfer")
    for index, (c, m, b, sim) in enumerate(zip(compute, model, batch, simulated)):
        if sim:
            bars.text(index, c + m + b, SIMULATED_LABEL, ha="center", va="bottom", fontsize=8,
                      color="firebrick")
    bars.set_ylabel("median ms per step")
    bars.set_title("where a step's time goes")
    bars.legend()
    if profile:
        draw_panel(profile[0], result, row_label)
    fig.suptitle(f"devlint verify {result.options.target_name}")
    cut = cut_line(result)
    if cut:
        fig.text(0.01, 0.01, cut, fontsize=7, color="dimgray")
    fig.tight_layout(rect=(0, 0.04 if cut else 0, 1, 1))
    return fig


def _mark_epochs_and_cut(axes, result: Verification) -> None:
    """A dotted line where each epoch after the first began (between two steps); a solid one
    after the last step when verify stopped the run there (--max-steps, --max-epochs)."""
    run = next((s.run for s in result.devices if s.run.epoch_starts), None)
    for n, start in enumerate(s for s in sorted(set(run.epoch_starts if run else [])) if s > 0):
        axes.axvline(start + 0.5, color="gray", linestyle=":", linewidth=0.8,
                     label="epoch start" if n == 0 else None)
    stopped = next((s.run for s in result.devices if s.run.stop.get("reason")), None)
    if stopped is not None and stopped.steps:
        reason = stopped.stop["reason"]
        flag = {"steps": "--max-steps", "epochs": "--max-epochs"}.get(reason, reason)
        axes.axvline(len(stopped.steps) + 0.5, color="black", linewidth=1.0)
        axes.annotate(f"cut by verify ({flag})", (len(stopped.steps) + 0.5, 1.0),
                      xycoords=("data", "axes fraction"), rotation=90, ha="right", va="top",
                      fontsize=8)
