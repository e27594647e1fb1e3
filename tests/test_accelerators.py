"""Whether a project names an accelerator anywhere (`workspace.accelerators`): the fact that
lets a module's `forward` in an application that never names one run where it was built."""
from __future__ import annotations

from devlint.workspace.accelerators import names_accelerator


def _project(root, files: dict) -> str:
    (root / ".git").mkdir()
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text, encoding="utf-8")
    return str(root / "models.py")


MODEL = "import torch.nn as nn\n\nclass Net(nn.Module):\n    pass\n"


def test_an_application_that_names_no_accelerator(tmp_path) -> None:
    path = _project(tmp_path, {"models.py": MODEL, "main.py": "model = Net().double()\n",
                               "plot.py": "ax.set_xlabel('input')\n"})  # `xla`, `npu` inside words
    assert names_accelerator(path) is False


def test_any_file_or_notebook_naming_one_counts(tmp_path) -> None:
    path = _project(tmp_path, {"models.py": MODEL, "run.ipynb": '{"cells": ["model.cuda()"]}'})
    assert names_accelerator(path) is True


def test_a_framework_trainer_places_the_model(tmp_path) -> None:
    path = _project(tmp_path, {"models.py": MODEL, "train.py": "trainer = pl.Trainer()\n"})
    assert names_accelerator(path) is True


def test_a_distribution_is_not_known(tmp_path) -> None:
    """A library's users move its models in code that is not in the project."""
    path = _project(tmp_path, {"models.py": MODEL, "setup.py": "setup(name='flows')\n"})
    assert names_accelerator(path) is None
    other = tmp_path / "other"
    other.mkdir()
    path = _project(other, {"models.py": MODEL, "pyproject.toml": "[project]\nname = 'x'\n"})
    assert names_accelerator(path) is None
