"""Fixture projects: several files whose bugs (or whose absence of bugs) are visible only across
a file boundary. Each project is a folder under fixtures/projects/, discovered; expectations sit
next to the code:

    `# error: DEV002`   a finding the whole-project run reports on this line, and only it;
    `# alone: DEV001`   a finding `--no-project` (every file alone) reports here, and only it;
    `# devlint-fixture: same alone`   the project is a bad input or a good project, not a
                        cross-file idiom: checked alone it must give the same findings.

A mark may sit in a file whose code is fine alone: a bug in `forward` or in a metrics helper
shows only with what an importer passes it, and is reported in that file, not the importer.

Checked three ways: the whole project in one run, each file alone in a run of its own (what
pre-commit does with one staged file), and with `--no-project`.
"""
from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import FIXTURES
from devlint.lint.runner import check_project
from devlint.core.selection import Selection

PROJECTS = sorted(p for p in (FIXTURES / "projects").iterdir() if p.is_dir())
MARK = re.compile(r"#\s*(?P<kind>error|alone):\s*(?P<codes>DEV\d{3}(?:\s*,\s*DEV\d{3})*)")


def marks(project: Path, kind: str) -> set[tuple[str, int, str]]:
    found = set()
    for path in sorted(project.rglob("*.py")):
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
            for match in MARK.finditer(line):
                if match.group("kind") == kind:
                    for code in re.split(r"\s*,\s*", match.group("codes")):
                        found.add((path.relative_to(project).as_posix(), number, code))
    return found


def same_alone(project: Path) -> bool:
    return any("devlint-fixture: same alone" in p.read_text(encoding="utf-8")
               for p in project.rglob("*.py"))


def run(project: Path, project_mode: bool = True) -> set[tuple[str, int, str]]:
    files = sorted([*project.rglob("*.py"), *project.rglob("*.ipynb")])  # a notebook imports too
    outcomes = check_project(files, lambda _: Selection(project=project_mode))
    return {(Path(f.path).relative_to(project).as_posix(), f.line, f.code)
            for o in outcomes for f in o.findings}


def test_there_are_projects_for_each_cross_file_idiom() -> None:
    assert len(PROJECTS) >= 5
    assert all(marks(p, "error") or marks(p, "alone") or same_alone(p) for p in PROJECTS)


@pytest.mark.parametrize("project", PROJECTS, ids=[p.name for p in PROJECTS])
def test_a_whole_project_run_reports_exactly_the_marked_lines(project: Path) -> None:
    assert run(project) == marks(project, "error")


@pytest.mark.parametrize("project", PROJECTS, ids=[p.name for p in PROJECTS])
def test_checked_alone_each_file_gives_what_the_marks_say(project: Path) -> None:
    """`--no-project`: the importer's view without the other files. A cross-file project must
    differ there (else its fixture shows nothing); a bad-input project must not."""
    alone = run(project, project_mode=False)
    if same_alone(project):
        assert alone == marks(project, "error")
    else:
        assert alone == marks(project, "alone")  # every `# error:` mark needs the other files
        assert alone != run(project)


@pytest.mark.parametrize("project", PROJECTS, ids=[p.name for p in PROJECTS])
def test_one_staged_file_gets_the_findings_of_a_whole_project_run(project: Path, tmp_path) -> None:
    """pre-commit passes only the changed files: devlint still reads what they import, and
    each file's findings are those of the whole-project run, in a process of its own."""
    whole = run(project)
    for path in sorted(project.rglob("*.py")):
        relative = path.relative_to(project).as_posix()
        done = subprocess.run(
            [sys.executable, "-m", "devlint", "check", "--no-cache", "--format", "json", relative],
            cwd=project, capture_output=True, text=True, timeout=120,
        )
        assert done.returncode in (0, 1), done.stderr
        found = {(relative, f["line"], f["code"]) for f in json.loads(done.stdout)["findings"]}
        assert found == {w for w in whole if w[0] == relative}, relative


def test_the_model_asks_for_other_files_only_through_the_interface_it_is_handed() -> None:
    """lint/model never imports the workspace: the files around a checked one come through
    `summaries.ModuleFiles`, which `workspace.project.PROJECT_FILES` implements."""
    import ast

    from devlint.lint.model.summaries import ModuleFiles
    from devlint.workspace.project import PROJECT_FILES

    model = Path(__file__).resolve().parent.parent / "src" / "devlint" / "lint" / "model"
    for source in sorted(model.glob("*.py")):
        for node in ast.walk(ast.parse(source.read_text(encoding="utf-8"))):
            names = [node.module or ""] if isinstance(node, ast.ImportFrom) else \
                [a.name for a in node.names] if isinstance(node, ast.Import) else []
            assert not any(n.startswith("devlint.workspace") for n in names), source.name
    for method in ("resolve", "child", "read", "digest", "project"):
        assert callable(getattr(PROJECT_FILES, method)) and hasattr(ModuleFiles, method)


CYCLE = {
    "pyproject.toml": "",
    "pkg/__init__.py": "import torch\nfrom .a import helper\n# for x in loader: model(x.to(device)) cuda\n",
    "pkg/a.py": (
        "import torch\nimport torch.nn as nn\nfrom pkg import helper as again\n\n"
        "device = torch.device('cuda' if torch.cuda.is_available() else 'cpu')\n\n\n"
        "def helper(model):\n    x = torch.zeros(4, 3)\n    return model(x)\n\n\n"
        "def train():\n    model = nn.Linear(3, 3).to(device)\n    for _ in range(3):\n"
        "        y = again(model)\n        y.sum().backward()\n\n\n"
        "train()\n"
    ),
}


def test_a_file_summarised_before_it_is_checked_gets_the_findings_of_a_fresh_run(tmp_path, monkeypatch) -> None:
    """A file summarised for an importer and then checked shares one parse with its summary;
    where its run reads its own summary back (an import cycle: here `helper` runs as the
    summary's, reached from line 16), it is checked on a tree of its own, so the findings, how
    they were reached and their fixes are those of a process that checks it first."""
    from devlint.lint.model import summaries

    for relative, text in CYCLE.items():
        (tmp_path / relative).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / relative).write_text(text, encoding="utf-8")
    monkeypatch.chdir(tmp_path)  # `import pkg` resolves from the project's folder
    package = sorted(Path("pkg").glob("*.py"))  # __init__.py first: it summarises a.py

    def findings(paths) -> list:
        outcomes = check_project(paths, lambda _: Selection())
        return [(f.path, f.line, f.code, f.message, f.reached, f.fix is None)
                for o in outcomes for f in o.findings]

    summaries._SUMMARIES.clear()
    after_summary = findings(package)
    summaries._SUMMARIES.clear()
    first = findings([Path("pkg/a.py")])
    assert first and after_summary == first
    assert first[0][4] is not None and first[0][4].location.line == 16  # reached from the cycle's call


def test_a_module_of_a_script_folder_imports_from_the_folder_of_the_script_above(tmp_path) -> None:
    """`exp/main.py` (no `__init__.py`) runs under `python run.py`, whose folder is on sys.path:
    its `from utils.tools import EarlyStopping` is `utils/tools.py` beside `exp/`. A package's
    module resolves through the path only, and the walk stops at the project's root."""
    from devlint.workspace.project import Project

    for name in ("run.py", "exp/main.py", "utils/tools.py"):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text("x = 1\n")
    (tmp_path / ".git").mkdir()
    project = Project(str(tmp_path))
    importer = str(tmp_path / "exp" / "main.py")
    assert project.resolve(importer, "utils.tools") == str(tmp_path / "utils" / "tools.py")
    assert project.resolve(importer, "missing.tools") is None
    (tmp_path / "exp" / "__init__.py").write_text("")
    assert project.resolve(importer, "utils.tools") == str(tmp_path / "utils" / "tools.py")  # the root
    nested = tmp_path / "sub"
    (nested / "exp").mkdir(parents=True)
    (nested / "exp" / "main.py").write_text("x = 1\n")
    inner = Project(str(nested))  # a project whose root has no marker: three levels up at most
    assert inner.resolve(str(nested / "exp" / "main.py"), "utils.tools") == str(tmp_path / "utils" / "tools.py")


def test_an_unmarked_tree_finds_a_package_module_s_imports_above_its_top_package(tmp_path) -> None:
    """A tree with no `.git` or `pyproject.toml` (a copied folder, an unpacked archive):
    `exp/exp_informer.py` in the package `exp` is imported from the folder above `exp/`, so its
    `from utils.tools import EarlyStopping` is `utils/tools.py` there. The root was `exp/`
    itself, the import stayed unknown, and the checkpoint that `EarlyStopping` saves in the same
    run was reported as a load of a GPU checkpoint on a CPU machine (Informer2020, DEV008)."""
    from devlint.workspace.project import project_of, project_root

    for name in ("exp/__init__.py", "exp/deep/__init__.py", "utils/__init__.py"):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text("")
    (tmp_path / "utils" / "tools.py").write_text(
        "import torch\n\n\nclass EarlyStopping:\n"
        "    def __call__(self, loss, model, path):\n"
        "        torch.save(model.state_dict(), path + '/' + 'checkpoint.pth')\n")
    (tmp_path / "exp" / "exp_a.py").write_text(
        "import os\n\nimport torch\n\nfrom utils.tools import EarlyStopping\n\n"
        "device = torch.device('cuda' if torch.cuda.is_available() else 'cpu')\n"
        "model = torch.nn.Linear(2, 2).to(device)\n\n\n"
        "def train(root):\n"
        "    path = os.path.join(root, 'run')\n"
        "    stopper = EarlyStopping()\n"
        "    for epoch in range(3):\n"
        "        stopper(1.0, model, path)\n"
        "    model.load_state_dict(torch.load(path + '/' + 'checkpoint.pth'))\n\n\n"
        "train('out')\n")
    assert project_root(str(tmp_path / "exp" / "deep")) == str(tmp_path)
    assert project_root(str(tmp_path)) == str(tmp_path)  # no package: the folder itself
    assert project_of(str(tmp_path / "exp" / "exp_a.py")).resolve(
        str(tmp_path / "exp" / "exp_a.py"), "utils.tools") == str(tmp_path / "utils" / "tools.py")
    assert run(tmp_path) == set()  # the run saved that checkpoint itself
    (tmp_path / "utils" / "tools.py").write_text("x = 1\n")
    assert ("exp/exp_a.py", 16, "DEV008") in run(tmp_path)  # nobody here wrote it


def test_a_call_the_limits_stop_returns_no_device_by_the_name_it_is_bound_to(tmp_path, monkeypatch) -> None:
    """e3nn's `dtype, device = explicit_default_types(dtype, device)` past the budget of calls
    into other files: what it returns is unknown, and binding it to `device` does not make it
    the training device (two false DEV006 in the ecosystem once deeper calls were followed)."""
    from devlint.lint.model import interpret

    (tmp_path / "defaults.py").write_text(
        "import torch\n\n\ndef explicit_types(dtype, device):\n"
        "    return torch.empty(0).dtype, torch.empty(0).device\n")
    (tmp_path / "main.py").write_text(
        "import torch\n\nfrom defaults import explicit_types\n\n"
        "fallback = torch.device('cuda' if torch.cuda.is_available() else 'cpu')\n"
        "dtype, device = explicit_types(None, None)\n"
        "basis = torch.zeros(3, 3).to(dtype=dtype, device=device)\n"
        "print(basis.numpy())\n")
    assert run(tmp_path) == set()  # followed: the default device, the CPU
    monkeypatch.setattr(interpret, "MAX_FOREIGN_CALLS", 0)
    assert run(tmp_path) == set()  # not followed: unknown, whatever its name


def test_a_package_module_in_a_folder_of_a_marked_repository_finds_imports_above_its_package(tmp_path) -> None:
    """A baseline vendored into a repository (`baselines/Informer2020/` under a `.git` root):
    `main_informer.py` there runs with its folder on sys.path, so `exp/exp_informer.py` of the
    package `exp` finds `utils.tools` beside `exp/`, not at the repository's root. Without
    that, `EarlyStopping`'s save in the same run was unseen and the reload of its checkpoint
    was reported (held-out set 20, DEV008). Outside the repository the walk stops."""
    from devlint.workspace.project import Project

    base = tmp_path / "baselines" / "Informer2020"
    for name in ("main_informer.py", "exp/__init__.py", "exp/exp_informer.py", "utils/__init__.py",
                 "utils/tools.py"):
        (base / name).parent.mkdir(parents=True, exist_ok=True)
        (base / name).write_text("x = 1\n")
    (tmp_path / ".git").mkdir()
    project = Project(str(tmp_path))
    importer = str(base / "exp" / "exp_informer.py")
    assert project.resolve(importer, "utils.tools") == str(base / "utils" / "tools.py")
    assert project.resolve(importer, "missing.tools") is None
    assert Project(str(base / "exp")).resolve(importer, "utils.tools") is None  # above the root


def test_checking_a_file_of_another_project_lets_the_last_ones_summaries_go(tmp_path, monkeypatch) -> None:
    """A run over a folder of projects checks one project's files after the other's: what was
    kept for the last project is let go when the next begins (one full collection, not one per
    eviction), and a project checked again gets the findings of a fresh run."""
    from devlint.core import collector
    from devlint.lint.model import summaries

    for name in ("one", "two"):
        for relative, text in CYCLE.items():
            (tmp_path / name / relative).parent.mkdir(parents=True, exist_ok=True)
            (tmp_path / name / relative).write_text(text, encoding="utf-8")
    one, two = (sorted((tmp_path / name / "pkg").glob("*.py")) for name in ("one", "two"))

    def findings(paths) -> list:
        return [(Path(f.path).relative_to(tmp_path).parts[1:], f.line, f.code, f.message)
                for o in check_project(paths, lambda _: Selection()) for f in o.findings]

    summaries._SUMMARIES.clear()
    alone = findings(one)
    kept = summaries._SUMMARIES
    monkeypatch.setattr(collector, "_drops", 0)
    both = findings(one + two + one)
    (_, held), = kept.values()
    assert held._project == str(tmp_path / "one")
    assert all(path.startswith(str(tmp_path / "one")) for path, _ in held._cache)
    assert collector._drops > 0  # (too few to collect the heap for)
    assert alone and both == alone * 3
    summaries._SUMMARIES.clear()
