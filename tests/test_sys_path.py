"""The folders a script puts on `sys.path` itself (`workspace.sys_path`): its imports resolve
through them, as CPython's do."""
from __future__ import annotations

import os

from devlint.workspace.project import Project
from devlint.workspace.sys_path import path_edits


def _tree(root, files: dict) -> None:
    (root / ".git").mkdir(parents=True)
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text, encoding="utf-8")


EDITS = {
    "join": "sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), 'lib'))",
    "pathlib": "sys.path.insert(0, str(Path(__file__).resolve().parent / 'lib'))",
    "parents": "sys.path.append(str(Path(__file__).resolve().parents[1] / 'lib'))",
    "literal": "sys.path.append('lib')",
    "parent dir": "sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))",
}


def test_each_spelling_of_an_edit_resolves(tmp_path) -> None:
    for number, (name, edit) in enumerate(EDITS.items()):
        root = tmp_path / str(number)
        script = "tools/run.py" if name in ("parents", "parent dir") else "run.py"
        module = "helpers.py" if name == "parent dir" else "lib/helpers.py"
        _tree(root, {script: f"import os, sys\nfrom pathlib import Path\n{edit}\nfrom helpers import f\n",
                     module: "def f():\n    return 1\n"})
        found = Project(str(root)).resolve(str(root / script), "helpers", 0)
        assert found == str(root / module), name


def test_what_the_text_cannot_compute_and_folders_outside_are_not_followed(tmp_path) -> None:
    _tree(tmp_path / "p", {"run.py": "import sys\nsys.path.insert(0, ROOT)\nsys.path.append('/usr/lib')\n"
                                     "sys.path.append('../elsewhere')\n"})
    (tmp_path / "elsewhere").mkdir()
    root = str(tmp_path / "p")
    assert path_edits(os.path.join(root, "run.py"), root) == ((), ())


def test_an_inserted_folder_comes_before_the_scripts_own(tmp_path) -> None:
    """`sys.path.insert(0, ...)` puts the folder first: its module of a shared name wins."""
    _tree(tmp_path, {"run.py": "import sys\nsys.path.insert(0, 'vendor')\nimport utils\n",
                     "utils.py": "", "vendor/utils.py": ""})
    assert Project(str(tmp_path)).resolve(str(tmp_path / "run.py"), "utils", 0) == \
        str(tmp_path / "vendor" / "utils.py")
