"""Code no run reaches: the top-level definitions of an application that no other file of it
names (`workspace.liveness`) and that no live code of their own module names
(`lint.model.liveness`). A run of them on their own follows no path a program takes."""
from __future__ import annotations

import json
import subprocess
import sys

import libcst as cst

from devlint.lint.model.liveness import dead_nodes
from devlint.workspace.liveness import unnamed_elsewhere

HELPERS = """import torch


def one_mix(mask, data):
    return mask * data


def normalize(data, std):
    return data / torch.tensor(std).cuda()


class EdgeLoss:
    pass
"""


def _project(root, files: dict) -> str:
    (root / ".git").mkdir()
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text, encoding="utf-8")
    return str(root / "utils.py")


def test_definitions_no_other_file_names(tmp_path) -> None:
    path = _project(tmp_path, {"utils.py": HELPERS,
                               "train.py": "from utils import one_mix\none_mix(1, 2)\n"})
    assert unnamed_elsewhere(path) == ("EdgeLoss", "normalize")


def test_any_text_file_naming_one_keeps_it(tmp_path) -> None:
    """A config a registry reads class names from, a shell script, a notebook, a README."""
    path = _project(tmp_path, {"utils.py": HELPERS, "train.py": "import utils\n",
                               "configs/train.yaml": "loss: EdgeLoss\n",
                               "scripts/prep.sh": "python -c 'from utils import normalize'\n",
                               "demo.ipynb": json.dumps({"cells": ["one_mix(m, x)"]})})
    assert unnamed_elsewhere(path) == ()


def test_a_module_no_file_imports_is_not_known(tmp_path) -> None:
    """An entry point, or a module `importlib` finds by a computed name (CycleGAN's
    `find_model_using_name`): any of its names may be what runs."""
    path = _project(tmp_path, {"utils.py": HELPERS, "train.py": "import importlib\n"
                               "module = importlib.import_module(args.helpers)\n"})
    assert unnamed_elsewhere(path) is None


def test_an_importer_reading_the_namespace_may_pick_any_name(tmp_path) -> None:
    path = _project(tmp_path, {"utils.py": HELPERS, "train.py": "import utils\n"
                               "helpers = {k.lower(): v for k, v in utils.__dict__.items()}\n"})
    assert unnamed_elsewhere(path) is None


def test_a_distribution_is_not_known(tmp_path) -> None:
    """A package others install: its users' code, not in the project, calls its names."""
    path = _project(tmp_path, {"utils.py": HELPERS, "setup.py": "setup(name='mixes')\n"})
    assert unnamed_elsewhere(path) is None


def _dead(source: str, unnamed: set) -> set:
    module = cst.parse_module(source)
    dead = dead_nodes(module, frozenset(unnamed))
    return {node.name.value for node in module.body
            if type(node) in (cst.FunctionDef, cst.ClassDef) and id(node) in dead}


LOSSES = """import torch.nn as nn


class EdgeLoss(nn.Module):
    pass


class SharpLoss(nn.Module):
    def __init__(self):
        super().__init__()
        self.edges = EdgeLoss()


class L1Loss(nn.Module):
    pass
"""


def test_a_definition_only_dead_code_names_is_dead() -> None:
    """EdgeLoss is built only by SharpLoss, which nothing builds."""
    assert _dead(LOSSES, {"EdgeLoss", "SharpLoss", "L1Loss"}) == {"EdgeLoss", "SharpLoss", "L1Loss"}
    assert _dead(LOSSES, {"EdgeLoss", "L1Loss"}) == {"L1Loss"}  # another file builds SharpLoss


def test_module_level_code_and_all_keep_a_definition() -> None:
    assert _dead(LOSSES + "\ncriterion = SharpLoss()\n", {"EdgeLoss", "SharpLoss"}) == set()
    assert _dead(LOSSES + "\n__all__ = ['L1Loss']\n", {"L1Loss"}) == set()


def test_a_registering_decorator_keeps_it_a_plain_one_does_not() -> None:
    source = ("import torch\n\n@register('edge')\ndef edge(x):\n    return x.cuda()\n\n\n"
              "@torch.no_grad()\ndef evaluate(x):\n    return x.cuda()\n")
    assert _dead(source, {"edge", "evaluate"}) == {"evaluate"}


def test_a_module_that_looks_its_names_up_keeps_them_all() -> None:
    source = LOSSES + "\n\ndef build(name):\n    return globals()[name]()\n"
    assert _dead(source, {"EdgeLoss", "SharpLoss", "L1Loss", "build"}) == set()


def _check(root) -> list:
    result = subprocess.run([sys.executable, "-m", "devlint", "check", str(root), "--format",
                             "json", "--exit-zero"], capture_output=True, text=True, cwd=root)
    return [(f["path"].replace("\\", "/").rsplit("/", 1)[-1], f["code"])
            for f in json.loads(result.stdout)["findings"]]


def test_a_cached_answer_goes_stale_when_a_file_names_the_helper(tmp_path) -> None:
    """The cache row records which definitions no other file named: a new caller revives it."""
    _project(tmp_path, {"utils.py": HELPERS, "train.py": "from utils import one_mix\n"})
    assert _check(tmp_path) == []
    assert _check(tmp_path) == []  # warm
    (tmp_path / "prep.py").write_text("from utils import normalize\n", encoding="utf-8")
    assert ("utils.py", "DEV001") in _check(tmp_path)
