"""Issue 22: `devlint verify --nproc N` runs a DDP script under torchrun on every device, one
simulated GPU per rank, and says in one report what each rank did.

The end-to-end tests run `--nproc 2` on the realistic scripts in verify_cases/scripts/ddp_*.py
(cpu and the simulated cuda, side by side: four ranks on this machine's cores).
"""
from __future__ import annotations

import json
import re
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytest.importorskip("torch")

from devlint.cli import main  # noqa: E402
from test_verify_hostile import _alive, _descendants, _wait_for  # noqa: E402

SCRIPTS = Path(__file__).resolve().parent / "verify_cases" / "scripts"


@pytest.fixture
def project(tmp_path, monkeypatch):
    """A copy of the DDP scripts as the user's tree, the working directory."""
    for script in SCRIPTS.glob("ddp_*.py"):
        shutil.copy(script, tmp_path / script.name)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def verify(capsys, *argv) -> tuple[int, dict, str]:
    code = main(["verify", "--json", "-q", *argv])
    out = capsys.readouterr().out
    return code, json.loads(out), out


def verify_text(capsys, *argv) -> tuple[int, str]:
    code = main(["verify", "-q", *argv])
    return code, capsys.readouterr().out


def rows(report: dict) -> dict[tuple[str, int], dict]:
    return {(d["device"], d["rank"]): d for d in report["devices"]}


def line_of(path: Path, text: str) -> int:
    return next(n for n, line in enumerate(path.read_text().splitlines(), 1) if text in line)


# -- end to end ---------------------------------------------------------------------------------
@pytest.mark.slow
@pytest.mark.usefixtures("warm_verify")
def test_a_correct_ddp_script_passes_on_both_devices_with_matching_losses_per_rank(
        project, capsys):
    code, report, _ = verify(capsys, "ddp_train.py", "--nproc", "2")
    by_row = rows(report)
    assert code == 0, report["verdict"]
    assert set(by_row) == {("cpu", 0), ("cpu", 1), ("cuda-sim", 0), ("cuda-sim", 1)}
    for rank in (0, 1):
        cpu, sim = by_row[("cpu", rank)], by_row[("cuda-sim", rank)]
        assert cpu["world_size"] == sim["world_size"] == 2
        assert cpu["status"] == sim["status"] == "completed"
        for row in (cpu, sim):  # the loader cap on every rank: 8 of its 16 batches an epoch
            assert [(d["drawn"], d["batches_per_epoch"], d["cut"]) for d in row["loaders"]] == [
                (8, 16, True)]
        assert len(cpu["losses"]) == 16 and cpu["losses"] == sim["losses"]
        assert sim["comparison"]["verdict"] == "identical" and sim["placement"] == "checked"
    # each rank trains on its own shard: the ranks' losses differ, the averaged model does not
    assert by_row[("cpu", 0)]["losses"] != by_row[("cpu", 1)]["losses"]
    assert "nccl ran as gloo" in " ".join(by_row[("cuda-sim", 1)]["notes"])


@pytest.mark.slow
@pytest.mark.usefixtures("warm_verify")
def test_a_batch_sent_to_cuda0_fails_rank_1_on_cuda_sim_with_dev013_at_its_line(project, capsys):
    code, report, _ = verify(capsys, "ddp_cuda0_batches.py", "--nproc", "2")
    by_row = rows(report)
    literal = line_of(project / "ddp_cuda0_batches.py", '"cuda:0" if use_cuda')
    assert code == 1
    assert by_row[("cpu", 0)]["ok"] and by_row[("cpu", 1)]["ok"]
    # cuda:0 is rank 0's own GPU: it fails only because torchrun stops it
    assert by_row[("cuda-sim", 0)]["status"] == "torn-down"
    assert by_row[("cuda-sim", 0)]["stopped_because"] == "rank 1"
    failed = by_row[("cuda-sim", 1)]
    assert failed["status"] == "error"
    assert "cuda:1 and cuda:0!" in failed["error"]["message"]  # PyTorch's own cross-device error
    assert failed["error"]["cpu_origin"]["line"] == literal
    findings = failed["explanation"]["findings"]
    assert [(f["code"], f["line"]) for f in findings] == [("DEV013", literal)]
    assert "FAILED: cuda (simulated on CPU) rank 1 error" in report["verdict"]


@pytest.mark.slow
@pytest.mark.usefixtures("warm_verify")
def test_the_rank_that_failed_is_named_and_the_teardown_is_reported(project, capsys):
    code, text = verify_text(capsys, "ddp_cuda0_batches.py", "--nproc", "2", "--devices",
                             "cuda-sim")
    assert code == 1
    assert "cuda (simulated on CPU) rank 0: stopped by torchrun after rank 1 failed" in text
    assert re.search(r"^cuda \(simulated on CPU\)\s+0\s+torn-down .* torn down$", text, re.M)
    assert text.count("Expected all tensors to be on the same device") == 1, text  # not N
    assert "Connection closed by peer" not in text


@pytest.mark.slow
@pytest.mark.usefixtures("warm_verify")
def test_batches_not_moved_to_the_ranks_gpu_map_to_dev002(project, capsys):
    code, report, out = verify(capsys, "ddp_batch_not_moved.py", "--nproc", "2")
    failing = line_of(project / "ddp_batch_not_moved.py", "loss = nn.functional.mse_loss")
    assert code == 1
    for rank in (0, 1):
        row = rows(report)[("cuda-sim", rank)]
        assert f"cuda:{rank} and cpu!" in row["error"]["message"]
        assert [(f["code"], f["line"]) for f in row["explanation"]["findings"]] == [
            ("DEV002", failing)]
    code, text = verify_text(capsys, "ddp_batch_not_moved.py", "--nproc", "2")
    assert text.count("explained by DEV002") == 1, text  # said once, for every rank
    assert "cuda (simulated on CPU) (every rank): RuntimeError" in text


@pytest.mark.slow
@pytest.mark.usefixtures("warm_verify")
def test_a_torchrun_script_without_nproc_gets_the_hint_and_works_with_it(project, capsys):
    code, text = verify_text(capsys, "ddp_train.py")
    assert code == 1
    assert "this script expects torchrun: use --nproc N (`devlint verify --nproc 2 " \
           "ddp_train.py`)" in text
    assert "not a device problem" not in text
    code, report, _ = verify(capsys, "ddp_train.py", "--nproc", "1")
    assert code == 0, report["verdict"]
    assert {(d["device"], d["rank"], d["world_size"]) for d in report["devices"]} == {
        ("cpu", 0, 1), ("cuda-sim", 0, 1)}


@pytest.mark.slow
@pytest.mark.usefixtures("warm_verify")
def test_a_model_wrapped_before_it_is_moved_fails_as_nccl_fails_it_and_maps_to_dev014(
        project, capsys):
    code, report, _ = verify(capsys, "ddp_wrapped_before_moved.py", "--nproc", "2")
    wrap = line_of(project / "ddp_wrapped_before_moved.py", "model = DDP(")
    assert code == 1 and all(d["ok"] for d in report["devices"] if d["device"] == "cpu")
    for rank in (0, 1):
        row = rows(report)[("cuda-sim", rank)]
        assert row["error"]["message"] == "No backend type associated with device type cpu"
        assert [(f["code"], f["line"]) for f in row["explanation"]["findings"]] == [
            ("DEV014", wrap)]


@pytest.mark.slow
@pytest.mark.usefixtures("warm_verify")
def test_a_checkpoint_loaded_onto_rank_0s_gpu_is_a_warning_explained_by_dev008(project, capsys):
    code, text = verify_text(capsys, "ddp_load_everywhere.py", "--nproc", "2")
    load = line_of(project / "ddp_load_everywhere.py", "torch.load(")
    assert code == 0, text
    assert (f"rank 1: placement warning: put tensors on cuda:0, the GPU of local rank 0, not on "
            f"its own cuda:1, first at ddp_load_everywhere.py:{load}") in text
    assert f"explained by DEV008 at ddp_load_everywhere.py:{load}" in text
    assert "warning: rank 1 put tensors on another rank's GPU" in text.splitlines()[-1]


@pytest.mark.slow
@pytest.mark.usefixtures("warm_verify")
def test_fix_under_nproc_runs_the_fixed_copy(project, capsys):
    code, text = verify_text(capsys, "ddp_cuda0_batches.py", "--nproc", "2", "--fix")
    assert code == 0, text
    assert "DEV013 line 24: use `local_rank`" in text


@pytest.mark.slow
@pytest.mark.usefixtures("warm_verify")
def test_rendezvous_options_pass_through_to_torchrun(project, capsys):
    """A named c10d endpoint, as a cluster gives one: the devices run one after the other,
    each on its own port."""
    import socket

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    code, report, _ = verify(capsys, "ddp_train.py", "--nproc", "2", "--nnodes", "1",
                             "--rdzv-backend", "c10d", "--rdzv-endpoint", f"127.0.0.1:{port}",
                             "--rdzv-id", "devlint-test", "--max-steps", "3")
    assert code == 0, report["verdict"]
    assert all(d["status"] == "completed" and len(d["steps"]) == 3 for d in report["devices"])


@pytest.mark.slow
@pytest.mark.usefixtures("warm_verify")
def test_plot_has_a_curve_per_rank(project, capsys, monkeypatch, tmp_path):
    pytest.importorskip("matplotlib")
    import matplotlib.axes

    labels = []
    original = matplotlib.axes.Axes.plot

    def plot(self, *args, **kwargs):
        labels.append(kwargs.get("label"))
        return original(self, *args, **kwargs)

    monkeypatch.setattr(matplotlib.axes.Axes, "plot", plot)
    png = tmp_path / "curves.png"
    code = main(["verify", "-q", "ddp_train.py", "--nproc", "2", "--max-steps", "3",
                 "--plot", str(png)])
    capsys.readouterr()
    assert code == 0 and png.read_bytes()[:4] == b"\x89PNG"
    assert labels == ["cpu rank 0", "cpu rank 1", "cuda (simulated on CPU) rank 0",
                      "cuda (simulated on CPU) rank 1"]


# -- a hang, signals: no process outlives verify ------------------------------------------------
def _watch(parent: subprocess.Popen, until, seconds: float) -> set[int]:
    """Every process under `parent` seen until `until()` holds."""
    seen: set[int] = set()
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and parent.poll() is None:
        seen |= _descendants(parent.pid)
        if until(seen):
            break
        time.sleep(0.1)
    return seen


def _gone(pids: set[int], seconds: float = 10) -> bool:
    return _wait_for(lambda: not any(map(_alive, pids)), seconds)


@pytest.mark.slow
@pytest.mark.skipif(not Path("/proc").is_dir(), reason="counts processes through /proc")
def test_a_hung_rank_is_stopped_with_its_stack_and_no_process_left(project):
    script = project / "ddp_hang.py"
    parent = subprocess.Popen(
        [sys.executable, "-m", "devlint", "verify", "ddp_hang.py", "--nproc", "2",
         "--timeout", "20", "--devices", "cpu,cuda-sim"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=project)
    # launcher, two agents, two workers and two ranks each
    seen = _watch(parent, lambda pids: len(pids) >= 9, 60)
    out, err = parent.communicate(timeout=120)
    assert parent.returncode == 1, err
    assert "Traceback" not in err
    hung = line_of(script, "time.sleep(0.05)")
    waits = line_of(script, "loss.backward()")
    for device in ("cpu", "cuda (simulated on CPU)"):
        # the rank's own time: the job's 20 s less the ranks' start (a spawned interpreter each)
        assert re.search(rf"^{re.escape(device)} rank 1: timed out after \d+ s .* with 3 steps done",
                         out, re.M), out
        assert f"where it hung (innermost first): ddp_hang.py:{hung} in next_batch" in out
        assert re.search(rf"^{re.escape(device)} rank 0: timed out", out, re.M), out
    assert f"ddp_hang.py:{waits} in <module>" in out  # rank 0 waits for rank 1 in backward
    assert len(seen) >= 9, seen
    assert _gone(seen), [(p, Path(f"/proc/{p}/cmdline").read_bytes()) for p in seen if _alive(p)]


@pytest.mark.slow
@pytest.mark.skipif(not Path("/proc").is_dir(), reason="counts processes through /proc")
@pytest.mark.parametrize("how, code", [("SIGTERM", 143), ("SIGINT", 130)])
def test_sigterm_and_ctrl_c_leave_no_rank_behind(project, how, code):
    parent = subprocess.Popen(
        [sys.executable, "-m", "devlint", "verify", "ddp_hang.py", "--nproc", "2",
         "--timeout", "300"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        cwd=project)
    seen = _watch(parent, lambda pids: len(pids) >= 9, 60)
    time.sleep(1.0)  # the ranks are in their loops
    seen |= _descendants(parent.pid)
    parent.send_signal(getattr(signal, how))
    out, err = parent.communicate(timeout=60)
    assert parent.returncode == code, err
    assert "the script's processes were stopped" in err and "Traceback" not in err
    assert len(seen) >= 9, seen
    assert _gone(seen), [(p, Path(f"/proc/{p}/cmdline").read_bytes()) for p in seen if _alive(p)]


# -- usage, and the pieces without processes -----------------------------------------------------
@pytest.mark.parametrize("argv, message", [
    (["--nnodes", "2"], "--nnodes is an option of torchrun: give --nproc N as well"),
    (["--nproc", "-1"], "--nproc must be between 1 and 64"),
    (["--nproc", "2", "--nnodes", "two"], "--nnodes must be N or MIN:MAX"),
])
def test_bad_torchrun_options_are_usage_errors(project, capsys, argv, message):
    assert main(["verify", "ddp_train.py", *argv]) == 2
    assert message in capsys.readouterr().err


def test_real_cuda_needs_a_gpu_per_rank(project, capsys, monkeypatch):
    from devlint.verify import session

    monkeypatch.setattr(session, "cuda_present", lambda: True)
    monkeypatch.setattr(session, "gpu_count", lambda: 1)
    assert main(["verify", "ddp_train.py", "--devices", "cuda", "--nproc", "2"]) == 2
    assert "this machine has 1 GPU(s) and every rank needs its own" in capsys.readouterr().err


def test_torchrun_gets_its_own_command_line():
    from devlint.verify.spec import ChildSpec
    from devlint.verify.torchrun import RANK_SCRIPT, launcher_argv

    spec = ChildSpec(device="cuda-sim", script="t.py", path="/t.py", nproc=2,
                     launcher_args=["--nnodes=2", "--rdzv-endpoint=host:29400"])
    assert launcher_argv(spec, "/spec.json") == [
        "--nproc-per-node", "2", "--nnodes=2", "--rdzv-endpoint=host:29400",
        "--start-method", "spawn", "--run-path", RANK_SCRIPT, "/spec.json"]
    assert launcher_argv(ChildSpec(device="cuda", script="t.py", path="/t.py", nproc=1),
                         "/s")[3] == "spawn"  # CUDA must not be initialised before a fork


def test_each_device_run_meets_at_its_own_port():
    from devlint.verify.runner import VerifyOptions, launcher_args, parallel_runs

    options = VerifyOptions(devices=["cpu", "cuda-sim"], nproc=2, launcher_args=[
        "--rdzv-endpoint=10.0.0.1:29400", "--master-port=29500", "--rdzv-id=job"])
    assert launcher_args(options, 0) == options.launcher_args
    assert launcher_args(options, 1) == ["--rdzv-endpoint=10.0.0.1:29401", "--master-port=29501",
                                         "--rdzv-id=job"]
    assert parallel_runs(options, 2) == 1  # every node runs the devices in the same order


def test_the_first_failing_rank_is_blamed_and_the_others_are_torn_down():
    from devlint.verify.runner import DeviceRun, blame_teardown

    def run(rank, status, message="", wall=1.0):
        return DeviceRun("cuda-sim", status, rank=rank, wall_s=wall,
                         error={"type": "RuntimeError", "message": message} if message else None)

    runs = [run(0, "error", "[pair.cc:553] Connection closed by peer [127.0.0.1]:1", 2.0),
            run(1, "error", "Expected all tensors to be on the same device", 1.5),
            run(2, "terminated"), run(3, "crashed", wall=0.0), run(4, "stopped")]
    blame_teardown(runs)
    assert [r.status for r in runs] == ["torn-down", "error", "torn-down", "torn-down", "stopped"]
    assert runs[0].blame == "rank 1"
    alone = [run(0, "crashed", wall=0.0), run(1, "terminated")]
    blame_teardown(alone)
    assert [r.status for r in alone] == ["crashed", "torn-down"]


def test_errors_that_need_torchrun_or_name_two_gpus_are_told_apart():
    from devlint.verify.errors import (
        CROSS_GPU, DEVICE_MISMATCH, NCCL_CPU, NEEDS_TORCHRUN, SHARED_GPU, classify,
    )

    same = "Expected all tensors to be on the same device, but found at least two devices, "
    assert classify("ValueError", "Error initializing torch.distributed using env:// "
                    "rendezvous: environment variable RANK expected, but not set") == NEEDS_TORCHRUN
    assert classify("KeyError", "'LOCAL_RANK'") == NEEDS_TORCHRUN
    assert classify("KeyError", "'HOME'") != NEEDS_TORCHRUN
    assert classify("RuntimeError", same + "cuda:1 and cuda:0!") == CROSS_GPU
    assert classify("RuntimeError", same + "cuda:1 and cpu!") == DEVICE_MISMATCH
    assert classify("DistBackendError", "Duplicate GPU detected : rank 1 and rank 0 both on "
                    "CUDA device 0") == SHARED_GPU
    assert classify("RuntimeError", "No backend type associated with device type cpu") == NCCL_CPU


def test_one_node_runs_take_a_free_port_never_torchruns_shared_default():
    """Without rendezvous options torchrun meets on port 29500, the same for every job on the
    machine: two jobs there can hand a rank the other job's store and hang it."""
    from devlint.verify.runner import VerifyOptions, launcher_args

    options = VerifyOptions(devices=["cpu", "cuda-sim"], nproc=2)
    assert launcher_args(options, 0) == launcher_args(options, 1) == ["--standalone"]


@pytest.mark.slow
def test_runs_in_a_row_never_hang_at_exit(project):
    """Ranks forked from torchrun's agent (which runs threads) hung at exit in about one run in
    ten; spawned, none did in 16. Six runs in a row, each in a fresh verify process."""
    import subprocess
    import sys

    for _ in range(6):
        done = subprocess.run(
            [sys.executable, "-m", "devlint", "verify", "ddp_train.py", "--nproc", "2",
             "--devices", "cpu", "--max-steps", "3", "--timeout", "60", "-q"],
            cwd=project, capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, done.stdout[-3000:]
