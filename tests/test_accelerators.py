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


def test_comments_name_nothing_but_code_and_strings_do(tmp_path) -> None:
    """A project that commented out every move (`torch.zeros(1) #.cuda()`) names no accelerator;
    one `.cuda()` in code, or a device in a string, does."""
    commented = "import torch\nx = torch.zeros(1)  #.cuda()\n# model = model.to('cuda')\n"
    for name, extra, named in (("a", "", False), ("b", "y = x.cuda()\n", True),
                               ("c", "DEVICE = 'cuda:0'  # gpu\n", True)):
        root = tmp_path / name
        root.mkdir()
        path = _project(root, {"models.py": MODEL, "main.py": commented + extra})
        assert names_accelerator(path) is named, name


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


GPU_MAIN = ("import torch\nfrom models import Net\n\nif __name__ == '__main__':\n"
            "    args = parse()\n    torch.cuda.set_device(args.gpu)\n    main(args)\n")


def test_a_module_only_gpu_scripts_import_runs_only_with_a_gpu(tmp_path) -> None:
    """Every importer sets its CUDA device before it runs anything (meta-learning repos)."""
    from devlint.workspace.accelerators import gpu_only_importers

    path = _project(tmp_path, {"models.py": MODEL, "train.py": GPU_MAIN, "test.py": GPU_MAIN})
    assert gpu_only_importers(path) is True


def test_one_importer_that_runs_without_a_gpu_keeps_the_module_cpu_reachable(tmp_path) -> None:
    from devlint.workspace.accelerators import gpu_only_importers

    demo = "from models import Net\n\nif __name__ == '__main__':\n    print(Net())\n"
    path = _project(tmp_path, {"models.py": MODEL, "train.py": GPU_MAIN, "demo.py": demo})
    assert gpu_only_importers(path) is False


def test_the_device_set_after_the_scripts_own_code_ran_proves_nothing(tmp_path) -> None:
    from devlint.workspace.accelerators import gpu_only_importers

    late = GPU_MAIN.replace("    torch.cuda.set_device(args.gpu)\n    main(args)\n",
                            "    main(args)\n    torch.cuda.set_device(args.gpu)\n")
    guarded = GPU_MAIN.replace("    torch.cuda.set_device(args.gpu)\n",
                               "    if torch.cuda.is_available():\n        torch.cuda.set_device(args.gpu)\n")
    for number, script in enumerate((late, guarded)):
        root = tmp_path / str(number)
        root.mkdir()
        assert gpu_only_importers(_project(root, {"models.py": MODEL, "train.py": script})) is False


def test_a_module_nothing_imports_is_not_gpu_only(tmp_path) -> None:
    from devlint.workspace.accelerators import gpu_only_importers

    assert gpu_only_importers(_project(tmp_path, {"models.py": MODEL})) is False


def test_a_packages_init_is_imported_by_the_importers_of_its_modules(tmp_path) -> None:
    """`from datasets.sampling import *` runs `datasets/__init__.py`, which imports `models`."""
    from devlint.workspace.accelerators import gpu_only_importers

    script = GPU_MAIN.replace("from models import Net", "from datasets.sampling import loader")
    path = _project(tmp_path, {"models.py": MODEL, "datasets/__init__.py": "from models import Net\n",
                               "datasets/sampling.py": "loader = None\n", "train.py": script})
    assert gpu_only_importers(path) is True
