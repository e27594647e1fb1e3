"""What a verify child does to the script's loops (issue 21, "exercise every loop"): loaders
capped per epoch, a stop at the next epoch, steps closed by backward() where no optimizer
steps, swallowed stops noticed, lines that never ran. In-process; every patch is undone."""
from __future__ import annotations

import textwrap

import pytest

torch = pytest.importorskip("torch")

from torch.utils.data import DataLoader, TensorDataset  # noqa: E402

from devlint.verify.caps import LoaderCaps  # noqa: E402
from devlint.verify.child import _handler_line  # noqa: E402
from devlint.verify.coverage import LineCoverage, ranges  # noqa: E402
from devlint.verify.recorder import Recorder, Stopper, StopRun  # noqa: E402


@pytest.fixture
def caps():
    stopper = Stopper()
    caps = LoaderCaps(max_batches=8, max_epochs=2, stopper=stopper)
    caps.install()
    yield caps
    caps.uninstall()


def test_a_loader_yields_k_batches_per_epoch_and_the_run_stops_at_the_next_epoch(caps):
    loader = DataLoader(TensorDataset(torch.arange(1000.0)), batch_size=10)
    assert len(loader) == 8
    assert [len(list(loader)) for _ in range(2)] == [8, 8]
    with pytest.raises(StopRun) as stop:
        iter(loader)
    assert stop.value.reason == "epochs"
    assert caps.report()["loaders"] == [{"dataset": "TensorDataset", "samples": 1000,
                                         "batches_per_epoch": 100, "drawn": 8, "epochs": 2,
                                         "cut": True}]


def test_a_short_loader_is_not_cut_and_an_abandoned_epoch_is_not_counted(caps):
    loader = DataLoader(TensorDataset(torch.arange(30.0)), batch_size=10)
    for _ in range(5):
        next(iter(loader))  # `next(iter(loader))` per step: never an epoch
    assert len(list(loader)) == 3
    (stats,) = caps.report()["loaders"]
    assert stats["epochs"] == 1 and not stats["cut"]


@pytest.fixture
def recorder():
    recorder = Recorder(max_steps=5)
    recorder.install()
    yield recorder
    recorder.uninstall()


def test_a_loop_without_an_optimizer_is_stopped_by_backward_calls(recorder):
    w = torch.zeros(3, requires_grad=True)
    with pytest.raises(StopRun):
        for _ in range(1000):
            (w - 1).pow(2).sum().backward()
            with torch.no_grad():
                w -= 0.1 * w.grad
                w.grad = None
    result = recorder.finish()
    assert result["step_kind"] == "backward" and len(result["steps"]) == 5


def test_backward_calls_before_the_first_optimizer_step_fold_into_it(recorder):
    model = torch.nn.Linear(2, 1)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for _ in range(2):
        for _ in range(4):  # gradient accumulation: four backward() per step
            model(torch.ones(1, 2)).sum().backward()
        opt.step()
        opt.zero_grad()
    result = recorder.finish()
    assert result["step_kind"] == "optimizer"
    assert [len(step["losses"]) for step in result["steps"]] == [4, 4]


def test_a_stop_the_script_swallows_is_noticed_at_the_next_hook():
    stopper = Stopper()
    noticed = []
    stopper.on_swallowed = noticed.append
    try:
        stopper.stop("steps")
    except BaseException:  # what a bare `except:` does
        pass
    stopper.check()
    assert [stop.reason for stop in noticed] == ["steps"]


def test_the_handler_that_swallowed_it_is_found():
    source = textwrap.dedent("""\
        for step in range(10):
            try:
                try:
                    train()
                except ValueError:
                    pass
            except BaseException:
                pass
    """)
    assert _handler_line(source, 4) == 7
    assert _handler_line("try:\n    x()\nexcept Exception:\n    pass\n", 2) is None


def test_lines_that_never_ran(tmp_path):
    path = tmp_path / "script.py"
    source = "x = 1\nif x > 5:\n    y = 2\n    z = 3\ndef f():\n    return 4\nprint(x)\n"
    path.write_text(source)
    code = compile(source, str(path), "exec")
    coverage = LineCoverage(str(path))
    coverage.start()
    try:
        exec(code, {"print": lambda *a: None})
    finally:
        coverage.stop()
    executable, never = coverage.never_run(code)
    assert never == [3, 4, 6] and executable == 7
    assert ranges(never) == [(3, 4), (6, 6)]


def test_a_loader_is_cut_only_where_a_for_loop_handles_the_end_of_its_data():
    from devlint.verify.loops import Loops

    caps = LoaderCaps(max_batches=3, max_epochs=2, stopper=Stopper(), loops=Loops(2))
    caps.install()
    try:
        loader = DataLoader(TensorDataset(torch.arange(100.0)), batch_size=10)
        assert len([batch for batch in loader]) == 3  # a comprehension's for
        it = iter(loader)
        assert len([next(it) for _ in range(7)]) == 7  # by hand: never the script's StopIteration

        def stream():
            for batch in loader:
                yield batch

        pulled = stream()
        assert len([next(pulled) for _ in range(7)]) == 7  # a generator pulled by hand
        assert len(list(zip(range(100), stream()))) == 10  # list() reads it to its real end
        drawn = 0
        for _ in stream():  # a for over the generator handles the end: cut
            drawn += 1
        assert drawn == 3
    finally:
        caps.uninstall()
