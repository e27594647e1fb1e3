"""Issue 31: every loop runs, shortened, and "OK" means checked.

Past a cap the script's loops end as at the end of their data and the code after them runs
(evaluation, saving); a `next()`-driven stream is never cut into the script's own
StopIteration; a device line that never ran on the accelerator makes the verdict PARTIAL."""
from __future__ import annotations

import ast
import json
import textwrap

import pytest

pytest.importorskip("torch")

from devlint.cli import main  # noqa: E402
from devlint.verify.device_lines import analyse  # noqa: E402
from devlint.verify.loops import Loops, instrument  # noqa: E402
from devlint.verify.session import EXIT_PARTIAL  # noqa: E402

pytestmark = pytest.mark.usefixtures("warm_verify")


def verify(tmp_path, capsys, source: str, *extra: str) -> tuple[int, dict]:
    script = tmp_path / "train.py"
    script.write_text(textwrap.dedent(source))
    code = main(["verify", "--json", "-q", str(script), *extra])
    return code, json.loads(capsys.readouterr().out)


def rules(report: dict) -> set[str]:
    return {f["code"] for d in report["devices"] if d["explanation"]
            for f in d["explanation"]["findings"]}


FIVE_EPOCHS = """\
    import torch
    import torch.nn as nn
    from torch.utils.data import DataLoader, TensorDataset

    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    torch.manual_seed(0)
    train = DataLoader(TensorDataset(torch.randn(640, 6), torch.randint(0, 2, (640,))),
                       batch_size=16, shuffle=True)
    test = DataLoader(TensorDataset(torch.randn(128, 6), torch.randint(0, 2, (128,))),
                      batch_size=32)
    model = nn.Linear(6, 2).to(device)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    for epoch in range(5):
        for xb, yb in train:
            xb, yb = xb.to(device), yb.to(device)
            loss = nn.functional.cross_entropy(model(xb), yb)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
    model.eval()
    correct = 0
    with torch.no_grad():
        for inputs, labels in test:
            inputs = inputs.to(device)
            labels = {labels}
            correct += (model(inputs).argmax(1) == labels).sum().item()
    print("accuracy", correct / len(test.dataset))
    torch.save(model.state_dict(), "model.pt")
    print("saved")
"""


def test_evaluation_after_five_epochs_runs_and_a_bug_planted_there_fails(tmp_path, capsys):
    code, report = verify(tmp_path, capsys, FIVE_EPOCHS.replace("{labels}", "labels.to(device)"))
    assert code == 0, report["verdict"]
    for run in report["devices"]:
        assert run["status"] == "completed" and "saved" in run["stdout_tail"]
    assert {"kind": "loop", "line": 13, "reason": "epochs", "iterations": 2,
            "device": True} in report["data_cut"]
    assert not [n for n in report["never_run"] if n["device"]]

    code, report = verify(tmp_path, capsys, FIVE_EPOCHS.replace("{labels}", "labels.long()"))
    assert code == 1 and report["verdict"].startswith("FAILED")
    sim = report["devices"][1]
    assert sim["error"]["frame"]["line"] == 26
    assert rules(report) == {"DEV004"}


VALIDATION_AFTER_100_STEPS = """\
    import torch
    import torch.nn as nn

    device = "cuda" if torch.cuda.is_available() else "cpu"
    torch.manual_seed(0)
    X, y = torch.randn(3200, 8), torch.randn(3200, 1)
    Xv, yv = torch.randn(64, 8), torch.randn(64, 1)
    model = nn.Linear(8, 1).to(device)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
    for step in range(100):
        xb, yb = X[step * 32:(step + 1) * 32].to(device), y[step * 32:(step + 1) * 32].to(device)
        loss = nn.functional.mse_loss(model(xb), yb)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    with torch.no_grad():
        val = nn.functional.mse_loss(model(Xv), yv.to(device))
    print("validation", val.item())
"""


def test_a_validation_only_bug_after_a_100_step_epoch_fails_with_its_rule(tmp_path, capsys):
    code, report = verify(tmp_path, capsys, VALIDATION_AFTER_100_STEPS)
    assert code == 1, report["verdict"]
    sim = report["devices"][1]
    assert sim["status"] == "error" and sim["error"]["frame"]["line"] == 17
    assert len(sim["steps"]) == 50
    assert rules(report) & {"DEV002", "DEV006"}
    assert {"kind": "loop", "line": 10, "reason": "steps", "iterations": 50,
            "device": True} in report["data_cut"]


ENDLESS_STREAM = """\
    import torch
    import torch.nn as nn
    from torch.utils.data import DataLoader, IterableDataset

    device = "cuda" if torch.cuda.is_available() else "cpu"
    torch.manual_seed(0)


    class Tokens(IterableDataset):
        def __iter__(self):
            g = torch.Generator().manual_seed(1)
            while True:
                x = torch.randn(8, generator=g)
                yield x, x.sum(0, keepdim=True)


    def iter_batches():
        for x, y in DataLoader(Tokens(), batch_size=16):
            yield x.to(device), y.to(device)


    model = nn.Linear(8, 1).to(device)
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-2)
    batches = iter_batches()
    X, Y = next(batches)
    iter_num = 0
    while True:
        loss = nn.functional.mse_loss(model(X), Y)
        X, Y = next(batches)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        iter_num += 1
        if iter_num > 2000:
            break
    torch.save(model.state_dict(), "ckpt.pt")
    print("done at", iter_num)
"""


def test_a_next_driven_endless_stream_ends_quietly_at_the_cap(tmp_path, capsys):
    code, report = verify(tmp_path, capsys, ENDLESS_STREAM)
    assert code == 0, report["verdict"]
    assert not report["fails_on_every_device"]
    for run in report["devices"]:
        assert run["status"] == "completed" and run["error"] is None
        assert len(run["steps"]) == 50 and "done at 50" in run["stdout_tail"]
    assert [c["line"] for c in report["data_cut"] if c["kind"] == "loop"] == [27]


DEVICE_LINE_NEVER_RUN = """\
    import os
    import torch

    device = "cuda" if torch.cuda.is_available() else "cpu"
    model = torch.nn.Linear(4, 1).to(device)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    if os.environ.get("RESUME_FROM"):
        state = torch.load(os.environ["RESUME_FROM"], map_location=device)
        model.load_state_dict(state)
    for _ in range(3):
        opt.zero_grad()
        model(torch.randn(8, 4, device=device)).pow(2).mean().backward()
        opt.step()
"""


def test_a_device_line_that_never_ran_makes_the_verdict_partial(tmp_path, capsys):
    code, report = verify(tmp_path, capsys, DEVICE_LINE_NEVER_RUN)
    assert code == EXIT_PARTIAL == 4
    assert report["verdict"].startswith("PARTIAL") and "lines 8-9" in report["verdict"]
    never = {n["line"]: n["device"] for n in report["never_run"]}
    assert never == {8: True, 9: True}
    assert report["unchecked_device_lines"] == {"cuda-sim": [8, 9]}


# -- in process: the rewrite and the device lines ------------------------------------------------
def run_rewritten(source: str, loops: Loops) -> dict:
    code = compile(instrument(ast.parse(textwrap.dedent(source))), "<test>", "exec")
    namespace = {"__devlint_loops__": loops}
    exec(code, namespace)
    return namespace


def test_a_loop_that_reached_the_cap_ends_as_at_the_end_of_its_data():
    loops = Loops(max_epochs=0)
    namespace = run_rewritten("""\
        def steps(): 
            loops.step()
            if loops.steps >= 3:
                loops.cap("steps")
        seen, after = [], []
        for i in range(10):
            for j in range(2):
                seen.append((i, j))
                steps()
        else:
            after.append("else")
        n = 0
        while n < 100:
            n += 1
        def gen():
            for k in range(5):
                yield k
        pulled = [next(g) for g in [gen()] for _ in range(5)]
    """.replace("loops.", "__devlint_loops__."), loops)
    assert namespace["seen"] == [(0, 0), (0, 1), (1, 0)]  # both loops end after step 3
    assert namespace["after"] == ["else"]  # the loop ended as at the end of its data
    assert namespace["n"] == 100  # a loop started after the cap runs: it made no steps
    assert namespace["pulled"] == [0, 1, 2, 3, 4]  # a generator's loop is never ended
    assert [c["line"] for c in loops.report()["cuts"]] == [6, 7]


def test_device_lines_are_the_ones_that_make_move_or_meet_a_device_value():
    lines, loop_ends = analyse(textwrap.dedent(DEVICE_LINE_NEVER_RUN))
    assert lines == {5: "move", 8: "move", 9: "meet", 12: "make"}
    assert loop_ends == {10: 13}


def test_model_code_generators_and_compiled_functions_are_left_alone():
    source = textwrap.dedent("""\
        class Net(nn.Module):
            def encode(self, x):
                for layer in self.layers:
                    x = layer(x)
                return x
        def batches():
            while True:
                yield 1
        @torch.compile
        def fused(xs):
            for x in xs:
                pass
        class Trainer:
            def fit(self):
                for epoch in range(3):
                    pass
    """)
    rewritten = ast.unparse(instrument(ast.parse(source)))
    assert rewritten.count("__devlint_loops__") == 1
    assert "for epoch in __devlint_loops__.iterate(range(3), 15)" in rewritten


def test_a_step_loop_after_the_epoch_cap_still_ends_at_the_step_cap():
    loops = Loops(max_epochs=1)
    loops.epoch_done("train", 1)  # the epoch loop ended: the epoch cap came first
    namespace = run_rewritten("""\
        done = 0
        for step in range(1000):  # a second phase, without a loader
            __devlint_loops__.step()
            done += 1
            if __devlint_loops__.steps >= 5:
                __devlint_loops__.cap("steps")
    """, loops)
    assert namespace["done"] == 5
