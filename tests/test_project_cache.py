"""The cache knows what a file's result stands on in other files of the project: editing an
imported file checks its importers again and nothing else; an unchanged tree is served whole."""
from __future__ import annotations

import json
from pathlib import Path

from devlint.lint.runner import check_files
from devlint.core.selection import Selection
from devlint.workspace.cache import Cache

TRAIN = """\
import torch
from torch import nn

from settings import DEVICE

model = nn.Linear(4, 2).to(DEVICE)
for x, y in torch.utils.data.DataLoader(torch.utils.data.TensorDataset(torch.randn(8, 4), torch.randn(8, 2))):
    print(model(x).sum().item(), y)
"""
FALLBACK = 'import torch\n\nDEVICE = torch.device("cuda" if torch.cuda.is_available() else "cpu")\n'
ALWAYS_CPU = 'import torch\n\nDEVICE = torch.device("cpu")\n'
UNRELATED = "def helper():\n    return 1\n"


def project(tmp_path: Path) -> Path:
    tmp_path.mkdir(parents=True, exist_ok=True)
    (tmp_path / "pyproject.toml").write_text("")
    (tmp_path / "train.py").write_text(TRAIN)
    (tmp_path / "settings.py").write_text(FALLBACK)
    (tmp_path / "other.py").write_text(UNRELATED)
    return tmp_path


def check(root: Path, cache_dir: Path):
    cache = Cache.open(cache_dir)
    files = sorted(root.glob("*.py"))
    outcomes = {Path(o.path).name: o for o in check_files(files, lambda _: Selection(), cache)}
    cache.save()
    return outcomes


def codes(outcome) -> list[str]:
    return [f.code for f in outcome.findings]


def test_editing_an_imported_file_checks_its_importers_again_and_nothing_else(tmp_path: Path) -> None:
    root, cache_dir = project(tmp_path / "p"), tmp_path / "cache"
    first = check(root, cache_dir)
    assert codes(first["train.py"]) == ["DEV002"]  # the device comes from settings.py
    assert not any(o.cached for o in first.values())

    warm = check(root, cache_dir)
    assert all(o.cached for o in warm.values())  # nothing parsed
    assert codes(warm["train.py"]) == ["DEV002"]

    (root / "settings.py").write_text(ALWAYS_CPU)
    edited = check(root, cache_dir)
    assert not edited["train.py"].cached and not edited["settings.py"].cached
    assert edited["other.py"].cached
    assert codes(edited["train.py"]) == []  # a CPU-only device: batches need no move


def test_a_file_that_starts_to_resolve_an_import_checks_the_importer_again(tmp_path: Path) -> None:
    root, cache_dir = project(tmp_path / "p"), tmp_path / "cache"
    (root / "settings.py").unlink()
    assert codes(check(root, cache_dir)["train.py"]) == []  # DEVICE unknown: silent
    (root / "settings.py").write_text(FALLBACK)
    again = check(root, cache_dir)
    assert not again["train.py"].cached
    assert codes(again["train.py"]) == ["DEV002"]


def test_a_moved_tree_still_hits_and_twins_check_their_own_neighbours(tmp_path: Path) -> None:
    """Dependencies are stored relative to the file: a whole tree moved elsewhere is served from
    the cache, the same train.py next to a different settings.py is checked again."""
    cache_dir = tmp_path / "cache"
    one = project(tmp_path / "one")
    check(one, cache_dir)
    moved = tmp_path / "moved"
    one.rename(moved)
    served = check(moved, cache_dir)
    assert served["train.py"].cached and codes(served["train.py"]) == ["DEV002"]
    twin = project(tmp_path / "twin")
    (twin / "settings.py").write_text(ALWAYS_CPU)
    second = check(twin, cache_dir)
    assert not second["train.py"].cached and codes(second["train.py"]) == []


def test_a_hand_edited_dependency_row_is_stale_never_a_crash(tmp_path: Path) -> None:
    root, cache_dir = project(tmp_path / "p"), tmp_path / "cache"
    check(root, cache_dir)
    index = next(cache_dir.glob("devlint-*.json"))
    payload = json.loads(index.read_text())
    assert payload["dependencies"]
    for key in payload["dependencies"]:
        payload["dependencies"][key] = [["file", 3], ["import"], "nonsense", ["child", None, 1, 2]]
    index.write_text(json.dumps(payload))
    again = check(root, cache_dir)
    assert not again["train.py"].cached
    assert codes(again["train.py"]) == ["DEV002"]


def test_no_project_results_are_cached_apart(tmp_path: Path) -> None:
    root, cache_dir = project(tmp_path / "p"), tmp_path / "cache"
    check(root, cache_dir)
    cache = Cache.open(cache_dir)
    alone = {Path(o.path).name: o for o in check_files(
        sorted(root.glob("*.py")), lambda _: Selection(project=False), cache)}
    assert not alone["train.py"].cached and codes(alone["train.py"]) == []


KERNEL_OP = """\
from torch.utils.cpp_extension import load

fused = load("fused", sources=["fused_bias_act.cpp", "fused_bias_act_kernel.cu"])
"""
KERNEL_MODEL = "from torch import nn\n\nimport op\n\n\nclass Net(nn.Linear):\n    pass\n"
KERNEL_SCRIPT = 'import torch\n\nfrom net import Net\n\nmodel = Net(4, 2).to("cuda")\nprint(model(torch.randn(1, 4, device="cuda")))\n'


def test_a_kernel_built_two_imports_away_is_part_of_what_the_importer_stands_on(tmp_path: Path) -> None:
    """generate.py -> net.py -> op.py, which compiles a CUDA kernel on import: the script needs a
    GPU anyway (no DEV001). Once op.py builds from C++ sources only, the script is checked again
    and its literal is a missing fallback."""
    root, cache_dir = tmp_path / "p", tmp_path / "cache"
    root.mkdir()
    (root / "pyproject.toml").write_text("")
    (root / "op.py").write_text(KERNEL_OP)
    (root / "net.py").write_text(KERNEL_MODEL)
    (root / "generate.py").write_text(KERNEL_SCRIPT)
    first = check(root, cache_dir)
    assert codes(first["generate.py"]) == []

    (root / "op.py").write_text(KERNEL_OP.replace("fused_bias_act_kernel.cu", "fused_bias_act_cpu.cpp"))
    edited = check(root, cache_dir)
    assert not edited["generate.py"].cached
    assert codes(edited["generate.py"]) == ["DEV001"]


DEMO = """\
import torch

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
net = torch.nn.Linear(4, 2)
net.load_state_dict(torch.load("weights/net_g.pth"))
net.to(device)
"""
HOST_SAVER = """\
import torch


def save_network(net, path):
    state_dict = net.state_dict()
    for key, param in state_dict.items():
        state_dict[key] = param.cpu()
    torch.save(state_dict, path)
"""


def test_a_result_that_stood_on_the_projects_saves_is_checked_again_when_they_change(tmp_path: Path) -> None:
    """demo.py imports nothing, but its DEV008 verdict stands on how the project writes its
    weights (`workspace.saves`): a save added elsewhere that writes straight from the model
    makes the cached silence stale."""
    root, cache_dir = tmp_path / "p", tmp_path / "cache"
    root.mkdir()
    (root / "pyproject.toml").write_text("")
    (root / "demo.py").write_text(DEMO)
    (root / "saver.py").write_text(HOST_SAVER)
    assert codes(check(root, cache_dir)["demo.py"]) == []  # the project's weights are CPU tensors
    warm = check(root, cache_dir)
    assert warm["demo.py"].cached and codes(warm["demo.py"]) == []

    (root / "saver.py").write_text(HOST_SAVER + "\n\ndef save_raw(net, path):\n"
                                   "    torch.save(net.state_dict(), path)\n")
    edited = check(root, cache_dir)
    assert not edited["demo.py"].cached
    assert codes(edited["demo.py"]) == ["DEV008"]


def test_a_run_looks_at_each_project_file_once_not_once_per_file_checked(tmp_path: Path, monkeypatch) -> None:
    """Asking every source of the project again for each file checked (who imports it, what
    it names) cost a project of N files N * N `stat` calls (issue 29): a run looks at each
    file's version once, whatever it asks of it."""
    import os
    from collections import Counter

    root = tmp_path / "p"
    (root / "pkg").mkdir(parents=True)
    (root / "pyproject.toml").write_text("")
    (root / "pkg" / "__init__.py").write_text("")
    n = 150
    for i in range(n):
        (root / "pkg" / f"m{i}.py").write_text(
            f"import torch\nfrom pkg.m{(i + 1) % n} import f\n\n\ndef f(x):\n    return x.cuda()\n")
    looked_at: Counter = Counter()
    real = os.stat

    def counting(path, *args, **kwargs):
        looked_at[os.path.basename(str(path))] += 1
        return real(path, *args, **kwargs)

    monkeypatch.setattr(os, "stat", counting)
    files = sorted(root.rglob("*.py"))
    outcomes = list(check_files(files, lambda _: Selection(), None))
    monkeypatch.setattr(os, "stat", real)
    assert len(outcomes) == n + 1 and any(o.findings for o in outcomes)
    # each module: a few dozen looks (its own check, its importer's, each question's reading
    # of it), as many for 30 modules as for 120; not some for each of the n files checked
    most = max(looked_at[f"m{i}.py"] for i in range(n))
    assert 0 < most < n // 2, most


def test_a_file_whose_importers_are_unknown_is_cached_as_such(tmp_path, monkeypatch) -> None:
    """A project too big to walk (past MAX_PROJECT_FILES, as a checkout's `/tmp` is) leaves a
    file's importers unknown: the cached result records that, instead of failing to write the
    entry (it raised TypeError there), and a second run holds while it stays unknown."""
    import devlint.workspace.importers as importers

    script = tmp_path / "gan.py"
    script.write_text(
        "import torch\nimport torch.nn as nn\n\n\nclass Dis(nn.Module):\n"
        "    def __init__(self):\n        super().__init__()\n        self.fc = nn.Linear(4, 1)\n\n"
        "    def loss(self, fake):\n        return self.fc(fake).mean() + torch.zeros(1).cuda().sum()\n",
        encoding="utf-8")
    monkeypatch.setattr(importers, "MAX_PROJECT_FILES", 0)
    importers._WALKS.clear()
    root = tmp_path / "p"
    root.mkdir()
    (root / "pyproject.toml").write_text("", encoding="utf-8")
    script.rename(root / "gan.py")
    first = check(root, tmp_path / "cache")["gan.py"]
    assert first.error is None and codes(first) == ["DEV001"]
    again = check(root, tmp_path / "cache")["gan.py"]
    assert again.cached and codes(again) == ["DEV001"]
