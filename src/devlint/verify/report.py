"""What `devlint verify` prints: a table per device, the failures mapped to rules, and the
seed's speedup verdict in plain words; or all of it as JSON; or a PNG."""
from __future__ import annotations

import json
import os
from dataclasses import asdict
from typing import Optional

from devlint.lint.report.columns import aligned
from devlint.verify.runner import describe_status
from devlint.verify.session import DeviceSummary, Verification
from devlint.verify.spec import CPU, CUDA, DEVICE_LABELS, is_simulated

SLOW_TRANSFER_SHARE = 0.3  # above this, copies rather than compute decide the step time
CLEAR_SPEEDUP = 1.2


def render_text(result: Verification) -> str:
    lines = [f"devlint verify {result.options.script}"
             + (" (with devlint's fixes applied to a copy)" if result.options.fix else ""), ""]
    lines += _table(result)
    lines.append("")
    for summary in result.devices:
        lines += _device_notes(summary, result)
    lines += _fix_notes(result)
    lines += speed_verdicts(result)
    lines.append("")
    lines.append("verdict: " + ("OK: every device ran and the losses match" if result.ok
                                 else "FAILED: " + _failure_summary(result)))
    return "\n".join(_squeeze_blank_lines(lines)) + "\n"


def _squeeze_blank_lines(lines: list[str]) -> list[str]:
    return [line for i, line in enumerate(lines) if line or i == 0 or lines[i - 1]]


def _table(result: Verification) -> list[str]:
    header = ("device", "status", "steps", "step (median)", "transfer", "final loss",
              "max rel diff", "verdict")
    rows = [header]
    for s in result.devices:
        rows.append((
            DEVICE_LABELS.get(s.run.device, s.run.device),
            s.run.status,
            str(len(s.run.steps)),
            _ms(s.median_step_s),
            _percent(s.transfer_share),
            _number(s.final_loss),
            "-" if s.comparison is None else _number(s.comparison.max_rel_diff, "{:.1e}"),
            _verdict(s),
        ))
    return aligned(rows)


def _verdict(summary: DeviceSummary) -> str:
    if not summary.run.ran:
        return "failed"
    if summary.comparison is None:
        return "baseline" if summary.run.device == CPU else "ran"
    return summary.comparison.verdict


def _device_notes(summary: DeviceSummary, result: Verification) -> list[str]:
    label = DEVICE_LABELS.get(summary.run.device, summary.run.device)
    out = []
    if is_simulated(summary.run.device):
        out.append(f"{label}: placement checked, timings not representative")
    if summary.run.error:
        out += _error_lines(label, summary, result)
    elif not summary.run.ran:
        out.append(f"{label}: {describe_status(summary.run)}")
        tail = summary.run.stderr.strip().splitlines()[-3:]
        out += [f"    {line}" for line in tail]
    comparison = summary.comparison
    if comparison is not None and summary.run.ran and comparison.reason:
        out.append(f"{label}: {comparison.verdict}: {comparison.reason}")
    if comparison is not None and comparison.onset and any(comparison.onset.values()):
        parts = [f"> {t} at step {s}" for t, s in comparison.onset.items() if s]
        out.append(f"{label}: relative difference first " + ", ".join(parts))
    return out + ([""] if out else [])


def _error_lines(label: str, summary: DeviceSummary, result: Verification) -> list[str]:
    error = summary.run.error or {}
    message = error.get("message", "").strip().splitlines() or [""]
    out = [f"{label}: {error.get('type', 'Error')}: {message[0]}"]
    out += [f"    {line}" for line in message[1:4]]
    frame = error.get("frame")
    if frame:
        out.append(f"    at {display_path(frame['path'], result)}:{frame['line']}: "
                   f"{(frame.get('code') or '').strip()}")
    origin = error.get("cpu_origin")
    if origin and not any("created at" in line for line in message):
        out.append(f"    the cpu tensor was created at {display_path(origin['path'], result)}:"
                   f"{origin['line']}")
    explanation = summary.explanation
    if explanation and explanation.findings:
        for finding in explanation.findings:
            fix = ""
            if finding.fix is not None:
                fix = (" (devlint fixed this in the copy)" if result.options.fix
                       else " (a fix exists: devlint check --fix, or verify --fix)")
            out.append(f"    explained by {finding.code} at "
                       f"{display_path(finding.path, result)}:{finding.line} "
                       f"({explanation.how}): {finding.message}{fix}")
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
    base = result.summary(CPU)
    out = []
    for summary in result.devices:
        if summary.run.device != CUDA or not summary.run.ran:
            continue
        line = speed_verdict(base, summary)
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
    bad = []
    for s in result.devices:
        label = DEVICE_LABELS.get(s.run.device, s.run.device)
        if not s.run.ran:
            bad.append(f"{label} {s.run.status}")
        elif s.comparison is not None and not s.comparison.ok:
            bad.append(f"{label} {s.comparison.verdict}")
    return ", ".join(bad) or "nothing ran"


def display_path(path: str, result: Verification) -> str:
    """Paths as the user would type them; the fixed copy under --fix by its original name."""
    if result.options.fix and "devlint-fixed-" in path and path.endswith(result.options.script.name):
        return f"{result.options.script} (fixed copy)"
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
        "script": str(options.script),
        "args": options.args,
        "ok": result.ok,
        "options": {"devices": options.devices, "max_steps": options.max_steps,
                    "seed": options.seed, "strict": options.strict, "fix": options.fix,
                    "timeout": options.timeout},
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
        "comparison": asdict(summary.comparison) if summary.comparison else None,
        "error": run.error,
        "explanation": summary.explanation.to_dict() if summary.explanation else None,
        "stdout_tail": run.stdout,
        "stderr_tail": run.stderr,
    }


def write_plot(result: Verification, path: str) -> None:
    """Loss curves overlaid, and each device's median step split into compute, model copies
    and batch copies."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, (curves, bars) = plt.subplots(1, 2, figsize=(11, 4.2))
    for summary in result.devices:
        losses = summary.run.losses
        if losses:
            steps = range(1, len(losses) + 1)
            curves.plot(steps, [v if v is not None else float("nan") for v in losses],
                        label=DEVICE_LABELS.get(summary.run.device, summary.run.device),
                        linestyle="--" if is_simulated(summary.run.device) else "-")
    curves.set_xlabel("optimizer step")
    curves.set_ylabel("loss")
    curves.set_title("loss per step")
    curves.legend()
    labels, compute, model, batch = [], [], [], []
    for summary in result.devices:
        if not summary.run.steps:
            continue
        step = summary.median_step_s or 0.0
        m, b = summary.median_part("model_time_s"), summary.median_part("batch_time_s")
        labels.append(DEVICE_LABELS.get(summary.run.device, summary.run.device))
        model.append(m * 1000)
        batch.append(b * 1000)
        compute.append(max(step - m - b, 0.0) * 1000)
    bars.bar(labels, compute, label="compute")
    bars.bar(labels, model, bottom=compute, label="model transfer")
    bars.bar(labels, batch, bottom=[c + m for c, m in zip(compute, model)], label="batch transfer")
    bars.set_ylabel("median ms per step")
    bars.set_title("where a step's time goes")
    bars.legend()
    fig.suptitle(f"devlint verify {result.options.script}")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
