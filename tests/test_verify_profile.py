"""`devlint verify --profile` (issue 34): per training step, every host-device copy and every
sync, with the script's line, on cuda-sim (counts and bytes) and on a real GPU (times)."""
from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pytest

from devlint.verify.profile import advice, describe_rate, profile_lines, rate, summarize

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"
CAUSES = ROOT / "tests" / "verify_cases" / "scripts" / "profile_causes.py"
MARK = re.compile(r"# cause: ([a-z-]+)")


def _cuda_available() -> bool:
    torch = pytest.importorskip("torch")
    return torch.cuda.is_available()


def profiled(capsys, *argv):
    """(exit code, JSON report, the accelerator row's profile) of one verification."""
    pytest.importorskip("torch")
    from devlint.cli import main

    code = main(["verify", "--json", "-q", "--profile", *argv])
    report = json.loads(capsys.readouterr().out)
    rows = [d for d in report["devices"] if d["device"] != "cpu"]
    assert rows and "profile" not in report["devices"][0], "cpu rows are not profiled"
    return code, report, rows[0]["profile"]


def sites_at(profile: dict, line: int) -> list[dict]:
    return [s for s in profile["sites"] if s["line"] == line]


def marked_lines(path: Path) -> dict[int, str]:
    return {number: match.group(1)
            for number, text in enumerate(path.read_text().splitlines(), 1)
            for match in [MARK.search(text)] if match}


# -- the parent's arithmetic: no torch needed -------------------------------------------------
def _site(by_step, kind="read", direction="d2h", sync=True, nbytes=4, **extra):
    return {"path": "t.py", "line": 3, "col": 1, "code": "loss.item()", "op": "item()",
            "direction": direction, "sync": sync, "kind": kind, "count": sum(by_step),
            "bytes": nbytes * sum(by_step), "time_s": None, "by_step": by_step, **extra}


def test_a_call_after_optimizer_step_still_counts_once_per_step():
    # print(loss.item()) after step(): the first window has none, the last one comes after
    after_step = _site([0, 1, 1, 1, 1])
    assert rate(after_step, 4) == 1 and describe_rate(after_step, 4) == "1 per step"
    setup = _site([1, 0, 0, 0, 0], kind="model", direction="h2d", sync=False)
    assert rate(setup, 4) is None and describe_rate(setup, 4) == "once"
    per_epoch = _site([0, 0, 1, 0, 1])
    assert rate(per_epoch, 4) is None and describe_rate(per_epoch, 4) == "2 in 4 steps"


def test_advice_is_one_line_per_kind_for_what_recurs_and_names_the_rule():
    sites = [_site([0, 1, 1, 1, 1]), dict(_site([0, 1, 1, 1, 1]), line=9),
             _site([1, 0, 0, 0, 0], kind="model", direction="h2d", sync=False),
             _site([0, 1, 1, 1, 0], kind="model", direction=None, sync=False),
             _site([1, 1, 1, 1, 0], kind="batch", direction="h2d", sync=False, blocking=0)]
    said = advice(sites, 4)
    assert [(a["kind"], a["line"], a["code"]) for a in said] == [("read", 3, None),
                                                                 ("model", 3, "DEV007")]
    summary = summarize({"steps": 4, "timed": False, "sites": sites})
    assert summary["sync"]["per_step"] == 2 and summary["d2h"]["bytes_per_step"] == 8
    assert summary["h2d"]["per_step"] == 1 and summary["h2d"]["time_s_per_step"] is None


def test_a_timed_profile_shows_milliseconds_and_splits_the_step_in_the_plot(tmp_path):
    """The real-GPU rendering, on a made-up timed profile (the GPU test runs the real one)."""
    from types import SimpleNamespace

    from devlint.verify.profile import draw_panel

    profile = {"timed": True, "steps": 4, "sites": [
        dict(_site([0, 1, 1, 1, 1]), time_s=4 * 2e-4),
        dict(_site([1, 1, 1, 1, 0], kind="batch", direction="h2d", sync=False, nbytes=512,
                   blocking=4), line=2, code="x.to(device)", time_s=4 * 1e-4)]}
    row = SimpleNamespace(run=SimpleNamespace(profile=profile, device="cuda"),
                          median_step_s=2e-3)
    result = SimpleNamespace(devices=[row])
    lines = profile_lines(result, lambda path, line, r: f"{path}:{line}", lambda run: run.device)
    text = "\n".join(lines)
    assert "times measured on the GPU" in text
    assert "syncs (the host waits for the device): 1 per step, 0.2 ms per step" in text
    assert re.search(r"t.py:2\s+x.to\(device\)\s+1 per step\s+512 B each\s+0.1 ms each", text)
    matplotlib = pytest.importorskip("matplotlib")
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure, axes = plt.subplots()
    draw_panel(axes, result, lambda run: run.device)
    heights = sorted(round(bar.get_height() * 1000, 6) for bar in axes.patches)
    assert heights == [0.0, 100.0, 200.0, 1700.0]  # d2h copy time, h2d, waits, the rest (us)
    plt.close(figure)


def test_hooks_that_cannot_be_installed_leave_torch_as_it_was_and_say_so(monkeypatch):
    torch = pytest.importorskip("torch")
    from types import SimpleNamespace

    from devlint.verify import profiler as child_side

    before = {name: torch.Tensor.__dict__.get(name) for name in ("to", "cuda", "item")}

    def broken(self):
        self._patch(torch.Tensor, "to", lambda *a, **k: None)
        raise AttributeError("module 'torch' has no attribute 'accelerator'")

    monkeypatch.setattr(child_side.Profiler, "_install", broken)
    hooks = child_side.Profiler(SimpleNamespace(steps=[], backward_steps=[]), str(ROOT), False)
    hooks.install()
    assert {name: torch.Tensor.__dict__.get(name) for name in before} == before
    report = hooks.report()
    assert report == {"profile": {"error": "AttributeError: module 'torch' has no attribute "
                                           "'accelerator'"}}
    row = SimpleNamespace(run=SimpleNamespace(profile=report["profile"], device="cuda-sim"))
    lines = profile_lines(SimpleNamespace(devices=[row]), None, lambda run: run.device)
    assert lines[0].startswith("profile, cuda-sim: not measured: AttributeError")


def test_on_a_gpu_the_sync_debug_modes_warnings_are_recorded_at_the_line_not_printed(
        monkeypatch, recwarn):
    """The real-GPU-only hook, with torch.cuda's calls stubbed (this machine has no GPU): a
    warning of torch's sync debug mode becomes a wait at the script's line; others pass."""
    torch = pytest.importorskip("torch")
    import warnings
    from types import SimpleNamespace

    from devlint.verify import profiler as child_side

    modes = []
    monkeypatch.setattr(torch.cuda, "set_sync_debug_mode", modes.append)
    monkeypatch.setattr(torch.cuda, "synchronize", lambda device=None: None)
    hooks = child_side.Profiler(SimpleNamespace(steps=[1, 2], backward_steps=[]),
                                str(Path(__file__).parent), real_gpu=True)
    hooks.install()
    try:
        assert modes == ["warn"]
        warnings.warn("called a synchronizing CUDA operation", UserWarning)
        line = sys._getframe().f_lineno - 1
        warnings.warn("something else", UserWarning)
    finally:
        report = hooks.report()
    assert modes == ["warn", 0]
    (site,) = report["profile"]["sites"]
    assert (site["line"], site["kind"], site["sync"], site["by_step"]) == (
        line, "other-sync", True, [0, 0, 1])
    assert site["time_s"] == 0.0 and report["profile"]["timed"] is True
    assert [str(w.message) for w in recwarn] == ["something else"]


def test_ranks_with_the_same_profile_share_one_block():
    from types import SimpleNamespace

    profile = {"timed": False, "steps": 4, "sites": [_site([0, 1, 1, 1, 1])]}
    other = {"timed": False, "steps": 4, "sites": [_site([0, 2, 2, 2, 2])]}
    rows = [SimpleNamespace(run=SimpleNamespace(profile=p, device="cuda-sim", rank=rank))
            for rank, p in enumerate((profile, other, profile))]
    lines = profile_lines(SimpleNamespace(devices=rows), lambda path, line, r: f"{path}:{line}",
                          lambda run: f"sim rank {run.rank}")
    heads = [line.split(":")[0] for line in lines if line.startswith("profile")]
    assert heads == ["profile, sim ranks 0, 2", "profile, sim rank 1"]


# -- end to end on cuda-sim ----------------------------------------------------------------------
@pytest.mark.usefixtures("warm_verify")
def test_every_cause_is_named_with_its_line_and_its_count_per_step(capsys):
    code, report, profile = profiled(capsys, str(CAUSES), "--devices", "cpu,cuda-sim")
    assert code == 0, report["verdict"]
    assert profile["timed"] is False and profile["steps"] == 8
    for line, kind in marked_lines(CAUSES).items():
        found = [s for s in sites_at(profile, line) if s["kind"] == kind and s["per_step"] == 1]
        assert found, (line, kind, sites_at(profile, line))
        # what a call does inside (formatting reads the value) is that call's, not counted again
        assert {s["kind"] for s in sites_at(profile, line) if s["per_step"]} == {kind}
    expected_syncs = {n for n, kind in marked_lines(CAUSES).items()
                      if kind in ("truth", "read", "print", "copy-back", "size", "synchronize")}
    assert {s["line"] for s in profile["sites"] if s["sync"] and s["per_step"]} == expected_syncs
    kinds = {a["kind"]: a for a in profile["summary"]["advice"]}
    assert set(kinds) == {"model", "batch", "from-data", "truth", "read", "print", "copy-back",
                          "size", "synchronize"}
    assert kinds["model"]["code"] == "DEV007"


@pytest.mark.usefixtures("warm_verify")
def test_the_seed_loop_has_one_copy_of_each_batch_and_one_sync_per_step(capsys):
    code, report, profile = profiled(capsys, str(EXAMPLES / "seed_loop.py"))
    assert code == 0 and report["options"]["profile"] is True
    recurring = [(s["line"], s["code"], s["direction"], s["sync"]) for s in profile["sites"]
                 if s["per_step"]]
    assert recurring == [(20, "inputs.to(device)", "h2d", False),
                         (20, "targets.to(device)", "h2d", False),
                         (25, "loss.item()", "d2h", True)]
    assert all(s["per_step"] == 1 for s in profile["sites"] if s["per_step"])
    (model,) = [s for s in profile["sites"] if s["kind"] == "model"]
    assert (model["line"], model["count"], model["rate"]) == (14, 1, "once")
    summary = profile["summary"]
    assert (summary["h2d"]["per_step"], summary["d2h"]["per_step"],
            summary["sync"]["per_step"]) == (2, 1, 1)
    assert summary["h2d"]["bytes_per_step"] == 32 * 4 * 4 + 32 * 4  # a batch of 32: x and y


@pytest.mark.usefixtures("warm_verify")
def test_the_fixed_buggy_loop_copies_both_halves_of_each_batch_and_never_waits_per_step(capsys):
    code, report, profile = profiled(capsys, "--fix", str(EXAMPLES / "buggy_seed_loop.py"))
    assert code == 0, report["verdict"]
    recurring = sorted((s["code"], s["per_step"]) for s in profile["sites"] if s["per_step"])
    assert recurring == [("inputs.to(device)", 1), ("targets.to(device)", 1)]
    # the print is per epoch: twice in the run, never a per-step wait; the inference loop after
    # the training loop runs too (verify shortens loops, it does not stop the script), and its
    # reads come after the last step
    reads = {s["code"]: s for s in profile["sites"] if s["kind"] == "read"}
    assert reads["loss.item()"]["rate"] == "2 in 16 steps"
    assert set(reads) == {"loss.item()", "model(batch).mean().item()"}
    assert not reads["model(batch).mean().item()"]["per_step"]
    assert profile["summary"]["sync"]["per_step"] == 0


@pytest.mark.usefixtures("warm_verify")
def test_the_text_report_shows_lines_counts_and_says_what_cuda_sim_cannot_measure(capsys):
    pytest.importorskip("torch")
    from devlint.cli import main

    main(["verify", "-q", "--profile", str(EXAMPLES / "seed_loop.py")])
    text = capsys.readouterr().out
    assert "counts and bytes only (simulated: no times)" in text
    assert re.search(r"seed_loop\.py:20\s+inputs\.to\(device\)\s+1 per step\s+512 B each", text)
    assert re.search(r"seed_loop\.py:25\s+loss\.item\(\)\s+1 per step", text)
    assert "syncs (the host waits for the device): 1 per step" in text
    main(["verify", "-q", str(EXAMPLES / "seed_loop.py")])
    assert "profile," not in capsys.readouterr().out  # only when asked for


@pytest.mark.usefixtures("warm_verify")
def test_the_plot_gets_the_profile_panel(tmp_path, capsys):
    pytest.importorskip("matplotlib")
    from devlint.cli import main

    plain, profiled_png = tmp_path / "plain.png", tmp_path / "profile.png"
    main(["verify", "-q", str(EXAMPLES / "seed_loop.py"), "--plot", str(plain)])
    main(["verify", "-q", "--profile", str(EXAMPLES / "seed_loop.py"), "--plot",
          str(profiled_png)])
    capsys.readouterr()
    width = lambda png: int.from_bytes(png.read_bytes()[16:20], "big")  # noqa: E731
    assert width(profiled_png) > width(plain) * 1.3  # a third panel


# -- a real GPU: scripts/device_checks.sh runs this -------------------------------------------
@pytest.mark.skipif(not _cuda_available(), reason="needs a CUDA GPU")
def test_gpu_profile_times_every_cause_and_sees_waits_no_wrapper_sees(capsys):
    code, report, profile = profiled(capsys, str(CAUSES), "--devices", "cpu,cuda")
    assert code == 0, report["verdict"]
    assert profile["timed"] is True
    for line, kind in marked_lines(CAUSES).items():
        found = [s for s in sites_at(profile, line) if s["kind"] == kind and s["per_step"] == 1]
        assert found and all(s["time_s"] is not None for s in found), (line, kind)
        # printing a cuda tensor reads it with .item()/.tolist() inside: counted once, as print
        assert {s["kind"] for s in sites_at(profile, line) if s["per_step"]} == {kind}
    summary = profile["summary"]
    assert summary["sync"]["time_s_per_step"] > 0 and summary["h2d"]["time_s_per_step"] > 0
    # no wait is counted twice: torch's sync debug mode adds none at a wrapped call's line
    wrapped = {s["line"] for s in profile["sites"] if s["kind"] != "other-sync"}
    assert not [s for s in profile["sites"] if s["kind"] == "other-sync"
                and s["line"] in wrapped and s["per_step"]]
