"""`devlint bench`: the sweep's budget, its JSON and plot, FLOP counts, the verdict."""
from __future__ import annotations

import itertools
import json
import subprocess
import sys
from pathlib import Path

import pytest

torch = pytest.importorskip("torch")

from devlint.bench.measure import MIN_STEPS, shape_of  # noqa: E402
from devlint.bench.points import SWEEP, Point  # noqa: E402
from devlint.bench.report import render_text, verdict_lines, write_plot  # noqa: E402
from devlint.bench.sweep import (BenchResult, DeviceResult, PointResult,  # noqa: E402
                                 run_sweep)
from devlint.bench.measure import Shape  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
HAS_CUDA = torch.cuda.is_available()
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def devlint(*args: str, timeout: float = 300) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "devlint", *args], capture_output=True,
                          text=True, timeout=timeout, cwd=ROOT)


# --- FLOPs -------------------------------------------------------------------------------------

@pytest.mark.parametrize("point", [p for p in SWEEP if p.kind != "cnn"], ids=lambda p: p.name)
def test_flop_counter_equals_the_analytic_count(point: Point) -> None:
    assert shape_of(point, torch).flops == point.analytic_flops()


def test_the_analytic_count_by_hand() -> None:
    # Layers 3->3, 3->3, 3->2 on a batch of 5: forward 2*5*(9+9+6) = 240, weight gradients 240,
    # input gradients of the second and third layers 2*5*(9+6) = 150.
    tiny = Point("tiny", "mlp", batch=5, width=3, depth=2, classes=2)
    assert tiny.analytic_flops() == 630
    assert shape_of(tiny, torch).flops == 630
    seed = Point("seed", "linear", batch=32, inputs=4)
    assert seed.analytic_flops() == 2 * (2 * 32 * 4 * 1)


def test_the_sweep_grows_from_the_seed_loop() -> None:
    flops = [shape_of(p, torch).flops for p in SWEEP]
    assert SWEEP[0].kind == "linear" and SWEEP[0].inputs == 4
    assert flops == sorted(flops)
    assert {p.kind for p in SWEEP} == {"linear", "mlp", "cnn"}


# --- budget ------------------------------------------------------------------------------------

class FakeClock:
    """Each reading is `tick` seconds after the last: a machine far slower than this one."""

    def __init__(self, tick: float) -> None:
        self.now = itertools.count(step=1)
        self.tick = tick

    def __call__(self) -> float:
        return next(self.now) * self.tick


def test_the_sweep_stops_measuring_when_the_budget_is_spent() -> None:
    result = run_sweep(["cpu"], budget_s=6.0, torch=torch, clock=FakeClock(1.0), points=SWEEP[:5])
    statuses = [p.results["cpu"].status for p in result.points]
    assert [p.point.name for p in result.points] == [p.name for p in SWEEP[:5]]
    assert statuses[0] == "measured"
    assert "skipped" in statuses
    first_skip = statuses.index("skipped")
    assert all(s == "skipped" for s in statuses[first_skip:])
    assert all("budget" in p.results["cpu"].reason for p in result.points[first_skip:])
    # A started point may finish its minimum steps; nothing starts after the budget is spent.
    one_point = MIN_STEPS + 2
    assert result.elapsed_s <= 6.0 + one_point


def made_up_machine(monkeypatch, floor_s: float, flops_per_s: float) -> None:
    """`measure` as on a machine whose step costs `floor_s` plus its FLOPs at `flops_per_s`:
    the step times the sweep learns from are known, whatever this machine's speed."""
    import devlint.bench.sweep as sweep
    from devlint.bench.measure import Measurement

    def measure(point: Point, device: str, torch, allowance_s: float, clock) -> Measurement:
        step = floor_s + shape_of(point, torch).flops / flops_per_s
        return Measurement(steps=[step] * MIN_STEPS, transfers=[0.0] * MIN_STEPS)

    monkeypatch.setattr(sweep, "measure", measure)


@pytest.mark.parametrize("budget_s, skipped", [(10.0, True), (1e5, False)])
def test_a_point_predicted_past_the_budget_is_skipped_with_the_prediction(
        monkeypatch, budget_s: float, skipped: bool) -> None:
    made_up_machine(monkeypatch, floor_s=1e-3, flops_per_s=1e10)
    points = SWEEP[:2] + SWEEP[-1:]
    result = run_sweep(["cpu"], budget_s=budget_s, torch=torch, clock=FakeClock(1.0),
                       points=points)
    big = result.points[-1].results["cpu"]
    assert all(p.results["cpu"].measured for p in result.points[:2])
    if not skipped:  # the same point with room for it: the prediction alone skipped it above
        assert big.measured
        return
    # The prediction: the smallest step seen (the seed's) plus the last point's FLOPs at the
    # rate the second point reached above it. Each reading of the clock is a second; three were
    # made before the last point.
    seed, second, last = (shape_of(point, torch).flops for point in points)
    seed_s, second_s = 1e-3 + seed / 1e10, 1e-3 + second / 1e10
    step = seed_s + last * (second_s - seed_s) / second
    assert big.status == "skipped" and big.predicted_step_s == pytest.approx(step)
    assert big.reason == (f"predicted {step:.3g} s per step from the 10 GFLOP/s reached so far: "
                          f"set-up and 5 steps would take {5 * step:.3g} s, 7 s of the budget "
                          "are left")


# --- the command -------------------------------------------------------------------------------

def test_json_holds_every_point_and_the_plot_is_a_png(tmp_path: Path) -> None:
    plot = tmp_path / "bench.png"
    done = devlint("bench", "--budget", "6", "--devices", "cpu", "--json", "-q",
                   "--plot", str(plot))
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert [p["name"] for p in report["points"]] == [p.name for p in SWEEP]
    for entry, point in zip(report["points"], SWEEP):
        cpu = entry["results"]["cpu"]
        assert cpu["status"] in ("measured", "skipped")
        assert entry["flops_per_step"] == shape_of(point, torch).flops
        assert entry["batch_bytes_per_step"] > 0 and entry["estimated_batch_transfer_s"] > 0
        if cpu["status"] == "measured":
            assert cpu["steps"] >= MIN_STEPS and cpu["median_step_s"] > 0
            assert cpu["achieved_flops_per_s"] == pytest.approx(
                entry["flops_per_step"] / cpu["median_step_s"])
        else:
            assert cpu["reason"]
    assert report["points"][0]["results"]["cpu"]["status"] == "measured"
    assert report["elapsed_s"] > 0 and report["budget_s"] == 6
    data = plot.read_bytes()
    assert data.startswith(PNG_SIGNATURE)
    import matplotlib.image

    height, width = matplotlib.image.imread(str(plot)).shape[:2]
    assert width > 600 and height > 300


@pytest.mark.skipif(HAS_CUDA, reason="checks the CPU-only wording")
def test_without_an_accelerator_it_says_so_and_labels_the_estimate() -> None:
    done = devlint("bench", "--budget", "3", "-q")
    assert done.returncode == 0, done.stderr
    assert "No accelerator" in done.stdout
    assert "est. copy" in done.stdout and "an estimate, not a measurement" in done.stdout
    assert "linear-4x1-b32" in done.stdout


@pytest.mark.parametrize("args, message", [
    (["--budget", "0"], "--budget must be positive"),
    (["--devices", "tpu"], "unknown device 'tpu'"),
    pytest.param(["--devices", "cuda"], "cuda is not available",
                 marks=pytest.mark.skipif(HAS_CUDA, reason="cuda is present")),
])
def test_usage_errors_are_one_line_and_exit_2(args: list[str], message: str) -> None:
    done = devlint("bench", *args)
    assert done.returncode == 2
    assert message in done.stderr and len(done.stderr.strip().splitlines()) == 1


def test_bench_of_a_script_times_it_and_counts_the_bytes_a_gpu_would_copy(tmp_path: Path) -> None:
    plot = tmp_path / "script.png"
    done = devlint("bench", "examples/seed_loop.py", "--json", "-q", "--budget", "120",
                   "--plot", str(plot))
    assert done.returncode == 0, done.stderr
    assert plot.read_bytes().startswith(PNG_SIGNATURE)
    report = json.loads(done.stdout)
    cpu = report["devices"]["cpu"]
    assert cpu["status"] == "completed" and cpu["steps"] == 40 and cpu["median_step_s"] > 0
    # Batches of 32 x 4 inputs and 32 x 1 targets, float32: 640 bytes a step.
    assert report["batch_bytes_per_step"] == 640
    if not HAS_CUDA:
        assert report["estimated_batch_transfer_s"] == pytest.approx(640 / 12e9 + 2 * 10e-6)
        assert any("estimate" in line for line in report["verdict"])


# --- the verdict, on measurements made up to have a known crossover -----------------------------

def made_up(points: list[tuple[float, float, float]]) -> BenchResult:
    """(cpu step, gpu step, gpu copy share) per point, FLOPs growing 100x a point."""
    bench = BenchResult(["cpu", "cuda"], {"cpu": "test cpu", "cuda": "test gpu"}, 60, "test")
    for index, (cpu, gpu, share) in enumerate(points):
        point = SWEEP[index]
        entry = PointResult(point, Shape(params=10, flops=100 ** (index + 1), batch_bytes=64,
                                         model_bytes=40))
        entry.results["cpu"] = DeviceResult("cpu", "measured", step_times_s=[cpu] * 3,
                                            transfer_times_s=[0.0] * 3)
        entry.results["cuda"] = DeviceResult("cuda", "measured", step_times_s=[gpu] * 3,
                                             transfer_times_s=[gpu * share] * 3,
                                             speedup=cpu / gpu)
        bench.points.append(entry)
    return bench


def test_the_verdict_names_the_crossover_and_what_dominates_the_losses(tmp_path: Path) -> None:
    bench = made_up([
        (100e-6, 150e-6, 0.1),  # launch-bound: the GPU's floor
        (120e-6, 160e-6, 0.7),  # copy-bound
        (2e-3, 200e-6, 0.2),  # the first win
        (2.0, 10e-3, 0.05),
    ])
    lines = verdict_lines(bench)
    assert lines[0].startswith(f"cuda wins from {SWEEP[2].name}")
    assert "up to 200.0x" in lines[0] and SWEEP[3].name in lines[0]
    assert any(SWEEP[0].name in line and "kernel launches" in line for line in lines)
    assert any(SWEEP[1].name in line and "copying each batch" in line for line in lines)
    text = render_text(bench)
    assert "10.00x" in text and "No accelerator" not in text
    plot = tmp_path / "gpu.png"
    write_plot(bench, str(plot))
    assert plot.read_bytes().startswith(PNG_SIGNATURE)


def test_the_verdict_names_the_transfer_share_that_sets_the_crossover() -> None:
    copy_bound = verdict_lines(made_up([
        (100e-6, 150e-6, 0.1), (120e-6, 160e-6, 0.7), (2e-3, 200e-6, 0.2)]))
    (line,) = [line for line in copy_bound if line.startswith("Transfer share at the crossover")]
    assert (f"70% of the cuda step at {SWEEP[1].name} (the last loss) and 20% at "
            f"{SWEEP[2].name} (the first win): the copies set the crossover") in line
    launch_bound = verdict_lines(made_up([(100e-6, 150e-6, 0.1), (2e-3, 200e-6, 0.05)]))
    (line,) = [line for line in launch_bound if line.startswith("Transfer share")]
    assert line.endswith("launch overhead, not the copies, sets the crossover.")
    never = verdict_lines(made_up([(100e-6, 150e-6, 0.1), (110e-6, 170e-6, 0.1)]))
    assert not [line for line in never if line.startswith("Transfer share")]


def test_a_gpu_that_never_wins_is_said_plainly() -> None:
    lines = verdict_lines(made_up([(100e-6, 150e-6, 0.1), (110e-6, 170e-6, 0.1)]))
    assert lines[0] == "cuda is never faster than the CPU on the points measured."


@pytest.mark.skipif(not HAS_CUDA, reason="needs a CUDA GPU")
def test_on_a_gpu_each_speedup_is_the_ratio_of_the_measured_medians() -> None:
    """How fast a GPU is belongs to the machine, not to a test (the verdict on known speeds is
    checked above on made-up measurements); here only that both devices' steps and copies are
    timed and compared."""
    result = run_sweep(["cpu", "cuda"], budget_s=60, torch=torch, points=SWEEP[:3])
    assert all(entry.results["cuda"].measured for entry in result.points)
    for entry in result.points:
        cpu, cuda = entry.results["cpu"], entry.results["cuda"]
        assert len(cuda.transfer_times_s) == len(cuda.step_times_s) >= MIN_STEPS
        if cpu.measured:
            assert cuda.speedup == pytest.approx(cpu.median_step_s / cuda.median_step_s)


@pytest.mark.parametrize("args", [["bench"], ["bench", "examples/seed_loop.py"]])
def test_without_torch_bench_says_how_to_install_it(monkeypatch, capsys, args: list[str]) -> None:
    import importlib.util

    from devlint.cli import main

    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec",
                        lambda name, *a: None if name == "torch" else real(name, *a))
    assert main(args) == 2
    err = capsys.readouterr().err
    assert "pip install '.[verify]' in a devlint checkout" in err and len(err.strip().splitlines()) == 1


# --- issue 21: a busy machine, a script's own chart, a crash on a device ------------------------

def test_a_point_whose_two_halves_disagree_is_flagged() -> None:
    bench = made_up([(100e-6, 150e-6, 0.1)])
    bench.points[0].results["cpu"] = DeviceResult("cpu", "measured",
                                                  step_times_s=[0.128] * 4 + [0.00095] * 4,
                                                  transfer_times_s=[0.0] * 8)
    text = render_text(bench)
    assert "(unstable)" in text
    assert "Warning: linear-4x1-b32 on cpu: the medians of the first and second half" in text
    assert "128.00 ms and 950 us" in text
    assert not bench.points[0].results["cuda"].unstable


def test_bench_of_a_script_draws_its_own_chart(tmp_path: Path) -> None:
    from devlint.bench.script import ScriptBench, write_plot as write_script_plot
    from devlint.verify.runner import DeviceRun
    from devlint.verify.session import DeviceSummary

    steps = [{"losses": [1.0], "time_s": 0.002, "batch_bytes": 640, "batch_time_s": 0.0,
              "model_bytes": 0, "model_time_s": 0.0, "copies": 2}] * 6
    bench = ScriptBench(Path("train.py"), timed=[DeviceSummary(DeviceRun("cpu", "stopped",
                                                                         steps=steps))],
                        simulated=DeviceSummary(DeviceRun("cuda-sim", "stopped", steps=steps)))
    plot = tmp_path / "bench.png"
    write_script_plot(bench, str(plot))
    assert plot.read_bytes().startswith(PNG_SIGNATURE)


def test_bench_of_a_script_that_crashes_on_the_simulated_gpu_exits_1(tmp_path: Path) -> None:
    script = tmp_path / "bug.py"
    script.write_text((ROOT / "tests" / "verify_cases" / "scripts" / "gan_bug.py").read_text())
    done = devlint("bench", str(script), "-q", "--max-steps", "5")
    assert done.returncode == 1, done.stdout + done.stderr
    assert "cuda (simulated on CPU): failed: RuntimeError: Expected all tensors" in done.stdout
    assert "it would crash on a GPU" in done.stdout
