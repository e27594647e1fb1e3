"""Code no run reaches: the top-level definitions of an application that no other file of it
names (`workspace.liveness`) and that no live code of their own module names
(`lint.model.liveness`). A run of them on their own follows no path a program takes."""
from __future__ import annotations

import json
from pathlib import Path
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


def test_a_module_nothing_imports_or_runs_reaches_only_what_its_top_level_names(tmp_path) -> None:
    """In a project (its `.git`), no file imports it and it is no script: running it (`python
    utils.py`) runs its module level only, so no other file's naming keeps its definitions
    live; what its own module level names (`one_mix` here) is live in `model.liveness`."""
    path = _project(tmp_path, {"utils.py": "import matplotlib\nmatplotlib.use('Agg')\n" + HELPERS
                               + "DEFAULT = one_mix(0, 1)\n",
                               "train.py": "import torch\nprint(torch.zeros(1))\n"})
    assert unnamed_elsewhere(path) == ("EdgeLoss", "normalize", "one_mix")


def test_a_loose_module_nothing_imports_is_not_known(tmp_path) -> None:
    """No project marker above it: a folder of loose files, whose modules a script elsewhere
    may import."""
    (tmp_path / "utils.py").write_text(HELPERS, encoding="utf-8")
    (tmp_path / "train.py").write_text("import torch\nprint(torch.zeros(1))\n", encoding="utf-8")
    assert unnamed_elsewhere(str(tmp_path / "utils.py")) is None


def test_a_module_pytest_or_a_package_import_runs_is_not_known(tmp_path) -> None:
    for name, text in (("test_utils.py", HELPERS), ("conftest.py", HELPERS)):
        root = tmp_path / name.replace(".", "_")
        root.mkdir()
        (root / ".git").mkdir()
        (root / name).write_text(text, encoding="utf-8")
        (root / "train.py").write_text("print(1)\n", encoding="utf-8")
        assert unnamed_elsewhere(str(root / name)) is None, name


def test_an_importer_reading_the_namespace_may_pick_any_name(tmp_path) -> None:
    path = _project(tmp_path, {"utils.py": HELPERS, "train.py": "import utils\n"
                               "helpers = {k.lower(): v for k, v in utils.__dict__.items()}\n"})
    assert unnamed_elsewhere(path) is None


def test_an_importer_picking_a_name_of_the_module_by_a_string_may_pick_any(tmp_path) -> None:
    for train in ("import utils as helpers\nfn = getattr(helpers, args.fn)\n",
                  "import utils as u\nprint(vars(u))\n",
                  "import inspect\nimport utils\nfound = inspect.getmembers(utils)\n",
                  "from utils import *\nfn = globals()[args.fn]\n"):
        root = tmp_path / str(len(list(tmp_path.iterdir())))
        root.mkdir()
        path = _project(root, {"utils.py": HELPERS, "train.py": train})
        assert unnamed_elsewhere(path) is None, train
        plain = root / "plain"  # the same import without the read: the names are known unnamed
        plain.mkdir()
        path = _project(plain, {"utils.py": HELPERS, "train.py": train.split("\n")[-3] + "\n"})
        assert unnamed_elsewhere(path) == ("EdgeLoss", "normalize", "one_mix"), train


def test_an_importer_reading_other_namespaces_picks_none_of_the_module(tmp_path) -> None:
    """`vars(self)` in a config class, `getattr(args, "lr")`: reads of the importer's own
    objects, not of the module's names (har-pytorch's `har_train.py` has `attrs = vars(self)`
    and picks its models by `if cfg.mod == 'CNN_0': mod = mods.CNN_0`)."""
    train = ("import utils as mods\n\nclass Config:\n    def show(self):\n        return vars(self)\n\n"
             "lr = getattr(args, 'lr', 0.1)\nmods.one_mix(1, 2)\n")
    path = _project(tmp_path, {"utils.py": HELPERS, "train.py": train})
    assert unnamed_elsewhere(path) == ("EdgeLoss", "normalize")


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
    for lookup in ("globals()[name]()", "eval(name)()", "vars()[name]()"):
        source = LOSSES + f"\n\ndef build(name):\n    return {lookup}\n"
        assert _dead(source, {"EdgeLoss", "SharpLoss", "L1Loss", "build"}) == set(), lookup


def test_a_model_put_in_eval_mode_looks_no_name_up() -> None:
    """`model.eval()` and `vars(args)` read no name of the module: liveness stands (camus's
    examples module calls `model.eval()`, and its `train_with_visualization` is called by
    nothing)."""
    source = LOSSES + ("\n\ndef evaluate(model, args):\n    model.eval()\n    print(vars(args))\n"
                       "\n\nevaluate(SharpLoss(), None)\n")
    assert _dead(source, {"EdgeLoss", "SharpLoss", "L1Loss", "evaluate"}) == {"L1Loss"}


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
    (tmp_path / "prep.py").write_text("from utils import normalize\n\nprint(normalize([1.0], 2.0))\n",
                                      encoding="utf-8")
    assert ("utils.py", "DEV001") in _check(tmp_path)


def test_the_names_a_module_binds_on_any_path_and_where_it_may_bind_more() -> None:
    """What `from models import X` can find (`lint.model.summaries.module_bindings`): a name the
    module binds nowhere makes the import raise; a module that may bind names its text does not
    show (a star import, `__getattr__`, writes to `globals()`) answers None."""
    from devlint.lint.model.summaries import module_bindings

    source = (b"import torch\nimport torch.nn as nn\nfrom os import path as p\n"
              b"try:\n    from apex import amp\nexcept ImportError as missing:\n    amp = None\n"
              b"if torch.cuda.is_available():\n    class Fast(nn.Module):\n        pass\n"
              b"for size in (1, 2):\n    pass\nwith open('x') as handle:\n    pass\n"
              b"def build():\n    global CACHE\n    CACHE = 1\n")
    assert module_bindings(source) == {"torch", "nn", "p", "amp", "missing", "Fast", "size",
                                       "handle", "build", "CACHE"}
    for dynamic in (b"from torch.nn import *\n", b"def __getattr__(name):\n    return name\n",
                    b"globals()['Model'] = object\n", b"import sys\nsetattr(sys.modules[__name__], 'M', 1)\n"):
        assert module_bindings(dynamic) is None, dynamic
    assert module_bindings(b"def broken(:\n") is None


def test_a_comment_names_nothing(tmp_path) -> None:
    """`# from utils import normalize`, commented out, runs nothing; a string does name it (a
    registry may read it)."""
    path = _project(tmp_path, {"utils.py": HELPERS, "train.py": "import utils\nutils.one_mix(1, 2)\n"
                               "# from utils import normalize\nLOSSES = ['EdgeLoss']\n"})
    assert unnamed_elsewhere(path) == ("normalize",)


def test_a_name_only_dead_code_of_another_module_names_is_unnamed(tmp_path) -> None:
    """`trainer.py` builds `EdgeLoss` inside a class nothing builds: no file imports the
    trainer, nothing runs it (no `__main__` block, no call at its top level, no file names it).
    A script that imports a name keeps it at hand (RD4AD's `main.py` imports `visualization`
    for its author to call), and one that calls it uses it."""
    trainer = ("from utils import EdgeLoss, one_mix\n\n\nclass Trainer:\n    def build(self):\n"
               "        self.loss = EdgeLoss()\n")
    for name, extra, unnamed in (("module", "", ("EdgeLoss", "normalize")),
                                 ("script", "\nif __name__ == '__main__':\n    print(1)\n", ("normalize",)),
                                 ("named", "", ("normalize",))):
        root = tmp_path / name
        root.mkdir()
        files = {"utils.py": HELPERS, "trainer.py": trainer + extra,
                 "train.py": "import utils\nutils.one_mix(1, 2)\n"}
        if name == "named":
            files["README.md"] = "Run `python trainer.py` to train.\n"
        path = _project(root, files)
        assert unnamed_elsewhere(path) == unnamed, name
