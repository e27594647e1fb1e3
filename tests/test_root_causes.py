"""One root cause, one finding across files (`devlint.lint.root_causes`): a run over several
scripts of one code base that never choose a device reports that decision once; each file
checked alone keeps its own finding, and unrelated scripts keep theirs."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

NETS = "import torch.nn as nn\n\n\ndef build():\n    return nn.Linear(4, 2)\n"
GPU_ONLY = ("import torch\nfrom pkg.nets import build\n\nmodel = build().cuda()\n"
            "x = torch.randn(3, 4).cuda()\nprint(model(x))\n")
ALONE = "import torch\n\ny = torch.zeros(3).cuda()\nprint(y)\n"
# chooses a device, then bypasses the choice in one function: a slip of its own
SLIP = ("import torch\nfrom pkg.nets import build\n\n"
        "device = torch.device('cuda' if torch.cuda.is_available() else 'cpu')\n"
        "model = build().to(device)\n\n\ndef evaluate():\n    x = torch.randn(3, 4).cuda()\n"
        "    return model(x)\n\n\nevaluate()\n")


def tree(root: Path, files: dict) -> Path:
    (root / "pyproject.toml").write_text("", encoding="utf-8")
    for relative, text in files.items():
        (root / relative).parent.mkdir(parents=True, exist_ok=True)
        (root / relative).write_text(text, encoding="utf-8")
    return root


def check(root: Path, *args: str) -> tuple[int, list]:
    done = subprocess.run([sys.executable, "-m", "devlint", "check", "--no-cache", "--format",
                           "json", *args], cwd=root, capture_output=True, text=True, timeout=120)
    assert done.returncode in (0, 1), done.stderr
    return done.returncode, [(f["path"], f["line"], f["code"], f["message"], f.get("related"))
                             for f in json.loads(done.stdout)["findings"]]


def code_base(tmp_path: Path) -> Path:
    return tree(tmp_path, {"pkg/__init__.py": "", "pkg/nets.py": NETS, "train_a.py": GPU_ONLY,
                           "train_b.py": GPU_ONLY, "train_c.py": GPU_ONLY, "lone.py": ALONE})


def test_connected_scripts_that_never_choose_a_device_get_one_finding(tmp_path) -> None:
    root = code_base(tmp_path)
    done = subprocess.run([sys.executable, "-m", "devlint", "check", "--no-cache", "--format",
                           "json", "."], cwd=root, capture_output=True, text=True, timeout=120)
    folded = [f for f in json.loads(done.stdout)["findings"] if f.get("same_cause")]
    assert [(p["path"], p["line"]) for f in folded for p in f["same_cause"]] == [
        ("train_b.py", 4), ("train_c.py", 4)]
    rc, found = check(root, ".")
    assert rc == 1
    assert [(p, line, code) for p, line, code, _, _ in found] == [
        ("lone.py", 3, "DEV001"), ("train_a.py", 4, "DEV001")]
    message, related = found[1][3], found[1][4]
    assert "2 more files of this code base never choose a device" in message
    assert "(the next: train_b.py:4)" in message
    assert related["line"] == 5  # the file's own next literal stays the related place


def test_each_file_alone_keeps_its_own_finding(tmp_path) -> None:
    root = code_base(tmp_path)
    for name in ("train_a.py", "train_b.py", "train_c.py"):
        rc, found = check(root, name)
        assert rc == 1 and [(p, line) for p, line, *_ in found] == [(name, 4)]
        assert "code base" not in found[0][3]


def test_without_project_mode_nothing_is_connected(tmp_path) -> None:
    _, found = check(code_base(tmp_path), ".", "--no-project")
    assert [p for p, *_ in found] == ["lone.py", "train_a.py", "train_b.py", "train_c.py"]


def test_unrelated_scripts_keep_a_finding_each(tmp_path) -> None:
    root = tree(tmp_path, {"lesson1.py": ALONE, "lesson2.py": ALONE, "lesson3.py": ALONE})
    _, found = check(root, ".")
    assert [p for p, *_ in found] == ["lesson1.py", "lesson2.py", "lesson3.py"]
    assert not any("code base" in message for _, _, _, message, _ in found)


def test_a_file_that_chooses_a_device_and_bypasses_it_is_a_slip_of_its_own(tmp_path) -> None:
    root = tree(tmp_path, {"pkg/__init__.py": "", "pkg/nets.py": NETS, "train_a.py": GPU_ONLY,
                           "train_b.py": GPU_ONLY, "evaluate.py": SLIP})
    _, found = check(root, ".")
    assert [(p, line) for p, line, *_ in found] == [("evaluate.py", 9), ("train_a.py", 4)]
    assert "1 more file of this code base never chooses" in found[1][3]


def test_the_text_report_counts_the_folded_finding_once(tmp_path) -> None:
    done = subprocess.run([sys.executable, "-m", "devlint", "check", "--no-cache", "."],
                          cwd=code_base(tmp_path), capture_output=True, text=True, timeout=120)
    assert done.returncode == 1, done.stderr
    lines = [line for line in done.stdout.splitlines() if ": DEV001 " in line]
    assert [line.split(":")[0] for line in lines] == ["lone.py", "train_a.py"]
    assert "Found 2 findings in 2 files" in done.stdout


def test_sarif_and_fix_see_the_same_run(tmp_path) -> None:
    root = code_base(tmp_path)
    done = subprocess.run([sys.executable, "-m", "devlint", "check", "--no-cache", "--format",
                           "sarif", "."], cwd=root, capture_output=True, text=True, timeout=120)
    results = json.loads(done.stdout)["runs"][0]["results"]
    assert len(results) == 2
    places = [loc["physicalLocation"]["artifactLocation"]["uri"]
              for result in results for loc in result.get("relatedLocations", ())]
    assert "train_b.py" in places and "train_c.py" in places
    # --fix still fixes every file: the fold is how the run reports, not what it fixes
    done = subprocess.run([sys.executable, "-m", "devlint", "check", "--no-cache", "--fix", "."],
                          cwd=root, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    for name in ("train_a.py", "train_b.py", "train_c.py", "lone.py"):
        assert ".cuda()" not in (root / name).read_text(encoding="utf-8"), name


BASE = ("import torch\n\n\nclass BaseModel:\n    def __init__(self, opt):\n"
        "        self.device = torch.device('cuda' if opt['num_gpu'] != 0 else 'cpu')\n\n"
        "    def feed_data(self, data):\n        self.lq = data['lq'].to(self.device)\n")
SUBCLASS = ("import torch\nfrom .base_model import BaseModel\n\n\nclass VideoModel(BaseModel):\n"
            "    def validation(self, loader):\n"
            "        metric = torch.zeros(3, device='cuda')\n"
            "        for data in loader:\n            self.feed_data(data)\n"
            "        return metric\n")


# basicsr's registry: every model file of the folder imported by a computed name (no file
# imports a model module by its own name, so without it they would be modules nothing runs)
REGISTRY = ("import importlib\nimport os\n\n"
            "for name in os.listdir(os.path.dirname(__file__)):\n"
            "    if name.startswith('video_'):\n"
            "        importlib.import_module(f'models.{name[:-3]}')\n")


def test_files_that_bypass_a_device_chosen_in_a_base_class_are_slips_each(tmp_path) -> None:
    """basicsr's video models make a metric with `device='cuda'` while their base class chooses
    `self.device` with a CPU arm and their runs place data with it: each literal bypasses a
    choice the code base made, so each is a finding of its own."""
    root = tree(tmp_path, {"models/__init__.py": REGISTRY, "models/base_model.py": BASE,
                           "models/video_a.py": SUBCLASS, "models/video_b.py": SUBCLASS})
    _, found = check(root, ".")
    assert [(p, line) for p, line, *_ in found] == [("models/video_a.py", 7),
                                                    ("models/video_b.py", 7)]


def test_a_run_from_the_cache_folds_the_same(tmp_path) -> None:
    (tmp_path / "tree").mkdir()
    root = code_base(tmp_path / "tree")
    cache = tmp_path / "cache"
    runs = []
    for _ in range(2):
        done = subprocess.run([sys.executable, "-m", "devlint", "check", "--cache-dir", str(cache),
                               "--format", "json", "."], cwd=root, capture_output=True, text=True,
                              timeout=120)
        assert done.returncode == 1, done.stderr
        runs.append([(f["path"], f["line"], f["message"]) for f in json.loads(done.stdout)["findings"]])
    assert any(cache.iterdir())
    assert runs[0] == runs[1] and len(runs[1]) == 2


def test_a_module_calling_a_helper_that_follows_its_data_shares_the_code_bases_cause() -> None:
    """siren (set 58): `loss_functions.py` never chooses a device, but calls a helper of another
    file that makes its tensor on `y.device`. That is the helper's following its data, no device
    the loss module was handed: the module shares the code base's root cause, and the run folds
    its finding with the training script's into one, at the first file in path order."""
    root = Path(__file__).resolve().parent.parent / "fixtures" / "projects" / \
        "loss_module_calls_a_helper_that_follows_its_data"
    _, found = check(root)
    assert [(path, line, code) for path, line, code, _, _ in found] == [("loss_functions.py", 13, "DEV001")]
    assert "1 more file of this code base never chooses a device" in found[0][3]


# ReCoNet (held-out set 64): a dataset module's module-level `device = 'cuda'`, read when a
# scratch script builds its dataset, is reported in the module as reached from that script; the
# code base never chooses a device, so it is the same cause as the training scripts' (the module
# imports the code base's helpers, as ReCoNet's `dataset.py` and `totaldata.py` share `flowlib`).
STALE_DATASET = ("import os\n\nimport numpy as np\nimport torch\nfrom torch.utils.data import Dataset\n\n"
                 "from pkg import nets\n\ndevice = 'cuda'\n\n\nclass Frames(Dataset):\n"
                 "    def __init__(self, path):\n        self.path = path\n"
                 "        self.names = sorted(os.listdir(path))\n\n"
                 "    def __len__(self):\n        return len(self.names)\n\n"
                 "    def __getitem__(self, idx):\n"
                 "        frame = np.load(self.path + self.names[idx])\n"
                 "        return torch.from_numpy(frame).to(device).float(), idx\n")
SCRATCH = ("from torch.utils.data import DataLoader\n\nfrom stale import Frames\n\n"
           "loader = DataLoader(Frames('frames/'), batch_size=1)\nfor itr, (frame, idx) in enumerate(loader):\n"
           "    print(frame.squeeze().cpu().numpy())\n")


def test_a_finding_reached_from_another_script_folds_into_the_code_bases_cause(tmp_path) -> None:
    root = tree(tmp_path, {"pkg/__init__.py": "", "pkg/nets.py": NETS, "train_a.py": GPU_ONLY,
                           "stale.py": STALE_DATASET, "scratch.py": SCRATCH})
    _, found = check(root, ".")
    assert [(p, line) for p, line, *_ in found] == [("stale.py", 9)]
    assert "(reached from scratch.py:5)" in found[0][3]  # the module's own run cannot tell
    assert "1 more file of this code base never chooses" in found[0][3]
    done = subprocess.run([sys.executable, "-m", "devlint", "check", "--no-cache", "."],
                          cwd=root, capture_output=True, text=True, timeout=120)
    assert [line.split(":")[0] for line in done.stdout.splitlines() if ": DEV001 " in line] == \
        ["stale.py"]
