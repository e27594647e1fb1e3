"""Pictures tell the truth (issue 31, item 6): a simulated device's timings are labelled on the
figure itself, the epochs and verify's cut are marked, and bench flags points measured on an
overloaded machine. The figures' artists are read, not their pixels."""
from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest

pytest.importorskip("matplotlib")

from devlint.bench.measure import Shape  # noqa: E402
from devlint.bench.points import SWEEP  # noqa: E402
from devlint.bench.report import OVERLOADED_LABEL, render_text  # noqa: E402
from devlint.bench.report import plot_figure as bench_figure  # noqa: E402
from devlint.bench.sweep import BenchResult, DeviceResult, PointResult  # noqa: E402
from devlint.verify.report import SIMULATED_LABEL, plot_figure  # noqa: E402
from devlint.verify.runner import DeviceRun, VerifyOptions  # noqa: E402
from devlint.verify.session import Verification, summarize  # noqa: E402


def texts(fig) -> list[str]:
    import matplotlib.text

    return [t.get_text() for t in fig.findobj(matplotlib.text.Text) if t.get_text()]


def steps(n: int) -> list[dict]:
    return [{"losses": [1.0 / (i + 1)], "time_s": 0.001, "batch_bytes": 0, "batch_time_s": 0.0,
             "model_bytes": 0, "model_time_s": 0.0, "copies": 0} for i in range(n)]


def verification(*runs: DeviceRun) -> Verification:
    result = Verification(VerifyOptions(script=Path("train.py"), devices=[r.device for r in runs],
                                        max_epochs=2))
    result.devices = summarize(list(runs), strict=False)
    return result


def test_a_simulated_devices_timings_are_labelled_on_the_figure():
    cut = {"epoch_starts": [0, 4], "stop": {"reason": "epochs"},
           "loaders": [{"dataset": "TensorDataset", "samples": 640, "batches_per_epoch": 10,
                        "drawn": 4, "epochs": 2, "cut": True}]}
    result = verification(DeviceRun("cpu", "stopped", steps=steps(8), **cut),
                          DeviceRun("cuda-sim", "stopped", steps=steps(8), **cut))
    fig = plot_figure(result)
    said = texts(fig)
    assert said.count(SIMULATED_LABEL) == 1  # on the simulated bar, not on the cpu's
    assert "cut by verify (--max-epochs)" in said
    assert any(t.startswith("data: TensorDataset (640 samples): 4 of 10 batches per epoch (cut)")
               for t in said)
    curves = fig.axes[0]
    epoch_lines = [line for line in curves.lines if line.get_linestyle() == ":"]
    assert [line.get_xdata()[0] for line in epoch_lines] == [4.5]  # between steps 4 and 5
    assert "epoch start" in [t.get_text() for t in curves.get_legend().get_texts()]


def test_a_real_gpus_timings_carry_no_such_label():
    result = verification(DeviceRun("cpu", "completed", steps=steps(8)),
                          DeviceRun("cuda", "completed", steps=steps(8)))
    assert SIMULATED_LABEL not in texts(plot_figure(result))


def made_up(cpu_steps: list[float], loads: list[float]) -> BenchResult:
    bench = BenchResult(["cpu"], {"cpu": "test cpu"}, 60, "test")
    bench.cores = 2
    for index, (step, load) in enumerate(zip(cpu_steps, loads)):
        entry = PointResult(SWEEP[index], Shape(params=10, flops=50 ** (index + 1), batch_bytes=64,
                                                model_bytes=40))
        entry.results["cpu"] = DeviceResult("cpu", "measured", step_times_s=[step] * 3,
                                            transfer_times_s=[0.0] * 3, load=load)
        bench.points.append(entry)
    return bench


def test_bench_flags_a_cpu_curve_that_falls_as_the_work_grows():
    # the first point read 10 ms, the next one, with 50 times the work, 1 ms: the machine was
    # busy while the first was measured
    bench = made_up([0.010, 0.001, 0.004], loads=[0.5, 0.5, 0.5])
    assert list(bench.suspects("cpu")) == [SWEEP[0].name]
    said = texts(bench_figure(bench))
    assert OVERLOADED_LABEL in said and said.count("overloaded") == 1
    assert f"Warning: {SWEEP[0].name} on cpu was measured on an overloaded machine (slower " \
           f"than {SWEEP[1].name}, which does 50x the work)" in render_text(bench)


def test_bench_flags_a_point_measured_with_the_load_above_the_cores():
    bench = made_up([0.001, 0.002, 0.004], loads=[0.5, 3.5, 0.5])
    assert bench.suspects("cpu") == {SWEEP[1].name: "load average 3.5 on 2 cores"}
    assert texts(bench_figure(bench)).count("overloaded") == 1
    quiet = made_up([0.001, 0.002, 0.004], loads=[0.5, 0.5, 0.5])
    assert not quiet.suspects("cpu") and OVERLOADED_LABEL not in texts(bench_figure(quiet))


@pytest.mark.usefixtures("warm_verify")
def test_a_run_reports_where_each_epoch_of_its_training_loader_began(tmp_path, capsys):
    pytest.importorskip("torch")
    from devlint.cli import main

    script = tmp_path / "train.py"
    script.write_text(textwrap.dedent("""
        import torch
        from torch.utils.data import DataLoader, TensorDataset
        model = torch.nn.Linear(4, 1)
        opt = torch.optim.SGD(model.parameters(), lr=0.1)
        train = DataLoader(TensorDataset(torch.ones(16, 4), torch.ones(16, 1)), batch_size=4)
        val = DataLoader(TensorDataset(torch.ones(8, 4), torch.ones(8, 1)), batch_size=4)
        for epoch in range(3):
            for x, y in train:
                loss = (model(x) - y).pow(2).mean()
                opt.zero_grad(); loss.backward(); opt.step()
            with torch.no_grad():
                for x, y in val:
                    model(x)
    """), encoding="utf-8")
    code = main(["verify", "--json", "-q", str(script), "--devices", "cpu", "--max-epochs", "0"])
    run = json.loads(capsys.readouterr().out)["devices"][0]
    assert code == 0 and len(run["steps"]) == 12
    assert run["epoch_starts"] == [0, 4, 8]  # the validation loader's passes are not epochs
