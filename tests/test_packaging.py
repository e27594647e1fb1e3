"""What a new user meets first: the README's first screen, the install hints, the package's
metadata, and an sdist and a wheel that carry what they need."""
from __future__ import annotations

import os
import re
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

import pytest

from conftest import ROOT
from devlint import __version__

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - 3.9/3.10
    import tomli as tomllib

README = (ROOT / "README.md").read_text(encoding="utf-8")
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))


def first_screen() -> str:
    """Everything above the first section heading."""
    return README.split("\n## ", 1)[0]


def first_commands() -> list[str]:
    block = re.search(r"```bash\n(.*?)```", first_screen(), re.S).group(1)
    return [line for line in block.splitlines() if line.strip() and not line.startswith("#")]


TORCH_CPU = "pip install torch --index-url https://download.pytorch.org/whl/cpu"


def test_the_first_screen_has_two_commands_the_first_lints_without_torch() -> None:
    install, tests = first_commands()
    assert install == "pip install . && devlint check examples/buggy_seed_loop.py"  # in a checkout
    assert "torch" not in install  # linting never needs it
    # torch's CPU build the way PyTorch documents it: no pin that only this environment has
    assert tests.startswith(TORCH_CPU + " && ") and tests.endswith("python -m pytest -q")
    assert "==" not in tests


def install_script_commands(pin: str = "") -> list[str]:
    """What scripts/install_test_env.sh runs, DEVLINT_TORCH_PIN set to `pin` (empty: unset)."""
    lines = [line.strip() for line in
             (ROOT / "scripts" / "install_test_env.sh").read_text(encoding="utf-8").splitlines()]
    lines = [line for line in lines if line and not line.startswith("#")]
    start, other, end = (lines.index(word) for word in
                         ('if [ -n "${DEVLINT_TORCH_PIN:-}" ]; then', "else", "fi"))
    torch = lines[start + 1:other] if pin else lines[other + 1:end]
    commands = [c.replace("${DEVLINT_TORCH_PIN}", pin).replace('"', "") for c in torch]
    return commands + lines[end + 1:]


def test_the_readmes_test_command_is_the_install_script_then_pytest() -> None:
    assert " && ".join(install_script_commands() + ["python -m pytest -q"]) == first_commands()[1]


def test_ci_runs_the_same_script_in_a_fresh_venv_only_the_torch_pin_differs() -> None:
    script = (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    line = "DEVLINT_TORCH_PIN=2.13.0 bash scripts/install_test_env.sh && python -m pytest -q"
    assert line in script
    assert script.index("python3 -m venv .ci-venv") < script.index(line)
    pinned = install_script_commands("2.13.0")
    assert pinned[0] == "pip install torch==2.13.0"  # this environment's local CPU wheel
    assert pinned[1:] == install_script_commands()[1:]  # the rest is the README's command
    workflow = (ROOT / ".github" / "workflows" / "ci.yml")
    if workflow.exists():  # GitHub's runners reach PyTorch's index: no pin there
        text = workflow.read_text(encoding="utf-8")
        assert "bash scripts/install_test_env.sh" in text and "DEVLINT_TORCH_PIN" not in text


def test_the_first_command_finds_the_four_bugs_it_promises(tmp_path: Path) -> None:
    result = subprocess.run([sys.executable, "-m", "devlint", "check", "examples/buggy_seed_loop.py"],
                            cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert result.returncode == 1 and "Found 4 findings in 1 file" in result.stdout
    assert "finds 4 bugs, exits 1" in first_screen()


def test_no_hint_tells_a_checkout_to_install_from_an_index() -> None:
    from devlint import hints

    for hint in (hints.TORCH, hints.MATPLOTLIB):
        assert "pip install '.[verify]' in a devlint checkout" in hint
    sources = [p for p in (ROOT / "src").rglob("*.py")] + [ROOT / "README.md"]
    for path in sources:
        assert "devlint[verify]" not in path.read_text(encoding="utf-8"), path


CI_DOCS = (ROOT / "docs" / "ci.md").read_text(encoding="utf-8")


def test_the_snippets_pin_the_release_tag_of_this_version() -> None:
    tag = f"v{__version__}"
    assert re.findall(r"^    rev: (\S+)", CI_DOCS, re.M) == [tag]
    uses = re.findall(r"uses: <owner>/<repo>@([\w.]+)", README + CI_DOCS)
    assert len(uses) >= 2 and set(uses) == {tag}  # the README's line and the workflow's
    releasing = (ROOT / "docs" / "contributing.md").read_text(encoding="utf-8")
    assert "pin a commit" in CI_DOCS and "git tag -a v<version>" in releasing


def test_the_docs_show_a_github_actions_workflow_with_sarif_upload() -> None:
    workflow = re.search(r"## GitHub Actions\n.*?```yaml\n(.*?)```", CI_DOCS, re.S).group(1)
    import yaml

    steps = yaml.safe_load(workflow)["jobs"]["devlint"]["steps"]
    uses = [step.get("uses", "") for step in steps]
    assert any(u.startswith("<owner>/<repo>@") for u in uses)  # no home of its own yet
    upload = next(s for s in steps if s.get("uses", "").startswith("github/codeql-action/upload-sarif"))
    assert upload["if"] == "always()" and upload["with"]["sarif_file"] == "devlint.sarif"
    action = (ROOT / "action.yml").read_text(encoding="utf-8")
    assert "--format github" in action and "--format sarif" in action


def test_license_and_metadata() -> None:
    from trove_classifiers import classifiers

    project = PYPROJECT["project"]
    assert (ROOT / "LICENSE").read_text(encoding="utf-8").startswith("MIT License")
    assert project["license"] == "MIT" and project["license-files"] == ["LICENSE"]
    assert project["classifiers"] and set(project["classifiers"]) <= classifiers
    assert not any(c.startswith("License ::") for c in project["classifiers"])  # PEP 639
    # Typing :: Typed would promise what `mypy --strict src/` does not deliver: neither ships
    assert "Typing :: Typed" not in project["classifiers"]
    assert not (ROOT / "src" / "devlint" / "py.typed").exists()


def build(kind: str, source: Path, out: Path) -> Path:
    """setuptools' own backend, in this interpreter (no isolation, so no network)."""
    code = (f"from setuptools import build_meta; import sys; "
            f"print(build_meta.build_{kind}(sys.argv[1]))")
    result = subprocess.run([sys.executable, "-c", code, str(out)], cwd=source,
                            capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr[-3000:]
    return out / result.stdout.strip().splitlines()[-1]


@pytest.fixture(scope="module")
def source_copy(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Built from a copy: a build writes egg-info and build/ next to the sources."""
    from test_precommit import GIT, snapshot_of_this_repository

    if GIT is None:
        pytest.skip("git is not installed")
    return snapshot_of_this_repository(tmp_path_factory.mktemp("build") / "devlint")


def test_the_sdist_ships_the_tests_and_all_they_need(source_copy: Path, tmp_path: Path) -> None:
    sdist = build("sdist", source_copy, tmp_path)
    with tarfile.open(sdist) as archive:
        archive.extractall(tmp_path, filter="data")
        names = {name.split("/", 1)[1] for name in archive.getnames() if "/" in name}
    tracked = subprocess.run(["git", "ls-files"], cwd=source_copy, capture_output=True,
                             text=True, check=True).stdout.split()
    missing = sorted(set(tracked) - names - {".gitignore"})
    assert not missing, missing
    unpacked = tmp_path / sdist.name[: -len(".tar.gz")]
    env = {**os.environ, "PYTHONPATH": str(unpacked / "src")}
    result = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests/test_rule_docs.py",
         "tests/test_fixtures.py", "-k", "DEV001 or generated_docs or readme"],
        cwd=unpacked, env=env, capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stdout[-3000:]
    assert str(unpacked) in subprocess.run(
        [sys.executable, "-c", "import devlint; print(devlint.__file__)"], cwd=unpacked, env=env,
        capture_output=True, text=True).stdout


def test_the_wheel_carries_the_schema_and_the_license_and_claims_no_types(source_copy: Path, tmp_path: Path) -> None:
    wheel = build("wheel", source_copy, tmp_path)
    with zipfile.ZipFile(wheel) as archive:
        names = set(archive.namelist())
        metadata = archive.read(next(n for n in names if n.endswith(".dist-info/METADATA"))).decode()
    assert {"devlint/schemas/check-report.schema.json", "devlint/schemas/tool-devlint.schema.json"} <= names
    assert "devlint/py.typed" not in names and "Typing :: Typed" not in metadata
    assert any(n.endswith(".dist-info/licenses/LICENSE") for n in names)
    assert "License-Expression: MIT" in metadata
    assert not any(n.startswith(("tests/", "fixtures/")) for n in names)
