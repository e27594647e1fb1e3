"""Configuration and discovery as CI meets them: a typo is an error (never a selection of
nothing that passes), patterns are anchored at the config's directory whatever the working
directory, .gitignore is respected, and every valid TOML spelling is read."""
from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

BUGGY = "import torch\nmodel = torch.nn.Linear(4, 1).cuda()\n"  # DEV001 at 2:31


def devlint(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "devlint", *args], cwd=cwd, capture_output=True,
                          text=True, timeout=120)


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def reported(result: subprocess.CompletedProcess) -> set[str]:
    return {line.split(":")[0] for line in result.stdout.splitlines() if ": DEV" in line}


def project(tmp_path: Path, config: str) -> Path:
    write(tmp_path / "pyproject.toml", textwrap.dedent(config))
    write(tmp_path / "src" / "train.py", BUGGY)
    write(tmp_path / "legacy" / "old.py", BUGGY)
    return tmp_path


def test_the_code_list_without_libcst_is_the_rules_codes() -> None:
    from devlint.core.codes import KNOWN_CODES, RULE_CODES
    from devlint.lint.rules import ALL_RULES

    assert RULE_CODES == tuple(rule.code for rule in ALL_RULES)
    assert "DEV999" in KNOWN_CODES


# -- typos are errors ----------------------------------------------------------------------


@pytest.mark.parametrize("flag, value", [
    ("--select", "DEV03"), ("--select", "FOO"), ("--ignore", "DEV1000"), ("--extend-select", "E501"),
])
def test_an_unknown_code_or_prefix_on_the_command_line_is_a_usage_error(tmp_path: Path, flag, value) -> None:
    write(tmp_path / "t.py", BUGGY)
    result = devlint("check", flag, value, "t.py", cwd=tmp_path)
    assert result.returncode == 2 and result.stdout == ""
    assert f"unknown code or prefix {value!r}" in result.stderr
    assert "known codes: DEV001, DEV002" in result.stderr and "DEV999" in result.stderr


@pytest.mark.parametrize("config", [
    '[tool.devlint]\nselect = ["DEV03"]\n',
    '[tool.devlint]\nselect = ["DEV-001"]\n',
    '[tool.devlint]\nignore = ["F401"]\n',
    '[tool.devlint]\nper-file-ignores = { "tests/*" = ["DEV1"] }\n',
])
def test_an_unknown_code_in_the_config_is_one_error_line(tmp_path: Path, config: str) -> None:
    write(tmp_path / "pyproject.toml", config)
    write(tmp_path / "t.py", BUGGY)
    result = devlint("check", cwd=tmp_path)
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.count("\n") == 1 and "unknown code or prefix" in result.stderr


@pytest.mark.parametrize("args", [["--select", ""], ["--select", ","], ["--extend-select", ""]])
def test_an_empty_selection_is_refused(tmp_path: Path, args: list[str]) -> None:
    write(tmp_path / "t.py", BUGGY)
    result = devlint("check", *args, "t.py", cwd=tmp_path)
    assert result.returncode == 2 and "selects no code" in result.stderr, result.stderr


@pytest.mark.parametrize("config, says", [
    ("exclude = 5", "exclude must be a list of strings, not a number"),
    ("exclude = [5]", "exclude must be a list of strings"),
    ("select = 1.5", "select must be a list of strings, not a number"),
    ("respect-gitignore = 'no'", "respect-gitignore must be true or false"),
    ("per-file-ignores = ['x']", "per-file-ignores must be a table"),
    ("select = []", "select is empty"),
])
def test_a_value_of_the_wrong_type_is_one_error_line(tmp_path: Path, config: str, says: str) -> None:
    write(tmp_path / "pyproject.toml", f"[tool.devlint]\n{config}\n")
    write(tmp_path / "t.py", BUGGY)
    result = devlint("check", cwd=tmp_path)
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert result.stderr.count("\n") == 1 and says in result.stderr, result.stderr


# -- config values -------------------------------------------------------------------------


@pytest.mark.parametrize("exclude", ['"legacy"', '"legacy/*"', '["legacy"]'])
def test_a_string_exclude_is_a_list_of_one(tmp_path: Path, exclude: str) -> None:
    """`exclude = "legacy/*"` was split into characters: `*` excluded every file, exit 0."""
    project(tmp_path, f"[tool.devlint]\nexclude = {exclude}\n")
    result = devlint("check", "--no-cache", ".", cwd=tmp_path)
    assert result.returncode == 1 and reported(result) == {"src/train.py"}, result.stdout


@pytest.mark.parametrize("header", ["[ tool.devlint ]", '[tool."devlint"]', "[ tool . devlint ]"])
def test_every_toml_spelling_of_the_table_is_read(tmp_path: Path, header: str) -> None:
    project(tmp_path, f'{header}\nexclude = ["legacy"]\n')
    assert reported(devlint("check", ".", cwd=tmp_path)) == {"src/train.py"}


def test_the_table_as_an_inline_table_is_read(tmp_path: Path) -> None:
    project(tmp_path, '[tool]\ndevlint = { exclude = ["legacy"] }\n')
    assert reported(devlint("check", ".", cwd=tmp_path)) == {"src/train.py"}


def test_extend_select_adds_to_select_in_config_and_on_the_command_line(tmp_path: Path) -> None:
    write(tmp_path / "pyproject.toml", '[tool.devlint]\nselect = ["DEV002"]\nextend-select = ["DEV001"]\n')
    write(tmp_path / "t.py", BUGGY)
    assert devlint("check", "t.py", cwd=tmp_path).returncode == 1  # DEV001 by extend-select
    # --select replaces both; --extend-select adds to what is selected
    assert devlint("check", "--select", "DEV005", "t.py", cwd=tmp_path).returncode == 0
    again = devlint("check", "--select", "DEV005", "--extend-select", "DEV001", "t.py", cwd=tmp_path)
    assert again.returncode == 1


# -- anchored patterns ---------------------------------------------------------------------


def test_exclude_is_anchored_at_the_config_whatever_the_working_directory(tmp_path: Path) -> None:
    """From inside examples/, `devlint check .` reported the excluded buggy_*.py."""
    write(tmp_path / "pyproject.toml", '[tool.devlint]\nexclude = ["examples/buggy_*"]\n')
    write(tmp_path / "examples" / "buggy_loop.py", BUGGY)
    write(tmp_path / "examples" / "ok.py", "x = 1\n")
    write(tmp_path / "other" / "examples" / "buggy_x.py", BUGGY)  # not the root's examples/
    top = devlint("check", ".", cwd=tmp_path)
    inside = devlint("check", ".", cwd=tmp_path / "examples")
    assert reported(top) == {"other/examples/buggy_x.py"}
    assert inside.returncode == 0 and "1 file checked" in inside.stdout, inside.stdout


def test_a_star_does_not_cross_a_slash(tmp_path: Path) -> None:
    write(tmp_path / "pyproject.toml", '[tool.devlint]\nexclude = ["src/*.py"]\n')
    write(tmp_path / "src" / "a.py", BUGGY)
    write(tmp_path / "src" / "deep" / "b.py", BUGGY)
    assert reported(devlint("check", ".", cwd=tmp_path)) == {"src/deep/b.py"}


def test_per_file_ignores_are_anchored_at_the_config(tmp_path: Path) -> None:
    write(tmp_path / "pyproject.toml",
          '[tool.devlint]\nper-file-ignores = { "scripts/*" = ["DEV001"] }\n')
    write(tmp_path / "scripts" / "gpu.py", BUGGY)
    write(tmp_path / "lib" / "scripts" / "x.py", BUGGY)
    for cwd in (tmp_path, tmp_path / "scripts"):
        result = devlint("check", str(tmp_path), cwd=cwd)
        assert {Path(p).relative_to(tmp_path).as_posix() for p in reported(result)} == {"lib/scripts/x.py"}


def test_a_named_file_is_checked_even_when_excluded_unless_force_exclude(tmp_path: Path) -> None:
    project(tmp_path, '[tool.devlint]\nexclude = ["legacy"]\n')
    assert reported(devlint("check", "legacy/old.py", cwd=tmp_path)) == {"legacy/old.py"}
    assert reported(devlint("check", "legacy", cwd=tmp_path)) == {"legacy/old.py"}
    forced = devlint("check", "--force-exclude", "legacy/old.py", "src/train.py", cwd=tmp_path)
    assert reported(forced) == {"src/train.py"}
    write(tmp_path / "pyproject.toml", '[tool.devlint]\nexclude = ["legacy"]\nforce-exclude = true\n')
    assert reported(devlint("check", "legacy/old.py", cwd=tmp_path)) == set()


def test_gitignore_is_respected_unless_told_not_to(tmp_path: Path) -> None:
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    write(tmp_path / ".gitignore", "generated/\n*_tmp.py\n")
    write(tmp_path / "src" / ".gitignore", "local.py\n!keep_tmp.py\n")
    for name in ("generated/model.py", "src/a_tmp.py", "src/local.py", "src/keep_tmp.py",
                 "src/train.py"):
        write(tmp_path / name, BUGGY)
    default = devlint("check", ".", cwd=tmp_path / "src")
    assert reported(default) == {"keep_tmp.py", "train.py"}, default.stdout
    everything = devlint("check", "--no-respect-gitignore", ".", cwd=tmp_path)
    assert len(reported(everything)) == 5
    write(tmp_path / "pyproject.toml", "[tool.devlint]\nrespect-gitignore = false\n")
    assert len(reported(devlint("check", ".", cwd=tmp_path))) == 5


def test_a_gitignore_above_the_repository_is_not_read(tmp_path: Path) -> None:
    write(tmp_path / ".gitignore", "*\n")  # e.g. a home directory's, outside the repository
    repo = tmp_path / "repo"
    repo.mkdir()
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    write(repo / "t.py", BUGGY)
    assert reported(devlint("check", ".", cwd=repo)) == {"t.py"}


CROSS_FILE = {
    "settings.py": 'import torch\nDEVICE = torch.device("cuda" if torch.cuda.is_available() else "cpu")\n',
    "train.py": ("import torch\nfrom settings import DEVICE\n"
                 "model = torch.nn.Linear(4, 1).to(DEVICE)\n"
                 "for x in torch.utils.data.DataLoader(torch.randn(8, 4)):\n"
                 "    print(model(x).sum().item())\n"),
}


@pytest.mark.parametrize("how", ["flag", "config"])
def test_project_mode_is_on_by_default_and_can_be_turned_off(tmp_path: Path, how: str) -> None:
    for name, text in CROSS_FILE.items():
        write(tmp_path / name, text)
    write(tmp_path / "pyproject.toml", "[tool.devlint]\n")
    on = devlint("check", "--no-cache", "train.py", cwd=tmp_path)
    assert on.returncode == 1 and "train.py:5:" in on.stdout and "DEV002" in on.stdout
    if how == "config":
        write(tmp_path / "pyproject.toml", "[tool.devlint]\nproject = false\n")
        off = devlint("check", "--no-cache", "train.py", cwd=tmp_path)
    else:
        off = devlint("check", "--no-cache", "--no-project", "train.py", cwd=tmp_path)
    assert off.returncode == 0, off.stdout  # DEVICE unknown when the file stands alone


def test_project_must_be_a_boolean(tmp_path: Path) -> None:
    write(tmp_path / "pyproject.toml", '[tool.devlint]\nproject = "yes"\n')
    write(tmp_path / "train.py", BUGGY)
    result = devlint("check", "train.py", cwd=tmp_path)
    assert result.returncode == 2 and "project must be true or false" in result.stderr


# -- each file's nearest configuration ------------------------------------------------------


def test_each_file_gets_its_nearest_config_however_the_run_reaches_it(tmp_path: Path) -> None:
    """A sub-project's [tool.devlint] applies to its files named alone, beside another file
    (pre-commit in a monorepo) or reached by a walk from the parent (repro
    config_nearest_not_per_file)."""
    write(tmp_path / "svc" / "trainer" / "pyproject.toml", '[tool.devlint]\nignore = ["DEV001"]\n')
    write(tmp_path / "svc" / "trainer" / "train.py", BUGGY)
    write(tmp_path / "tools" / "script.py", BUGGY)
    (tmp_path / ".git").mkdir()
    for paths in (["svc/trainer/train.py"], ["svc/trainer/train.py", "tools/script.py"], ["."]):
        result = devlint("check", "--no-cache", *paths, cwd=tmp_path)
        assert "svc/trainer/train.py" not in reported(result), (paths, result.stdout)
    walked = devlint("check", "--no-cache", ".", cwd=tmp_path)
    assert reported(walked) == {"tools/script.py"}


def test_the_nearest_table_wins_whole_over_a_parent_table(tmp_path: Path) -> None:
    write(tmp_path / "pyproject.toml", '[tool.devlint]\nignore = ["DEV001"]\nexclude = ["gen"]\n')
    write(tmp_path / "child" / "pyproject.toml", '[tool.devlint]\nselect = ["DEV001"]\n')
    write(tmp_path / "child" / "train.py", BUGGY)
    write(tmp_path / "child" / "gen" / "made.py", BUGGY)  # the parent's exclude is not inherited
    write(tmp_path / "gen" / "made.py", BUGGY)
    write(tmp_path / "top.py", BUGGY)
    for cwd, paths in ((tmp_path, ["."]), (tmp_path / "child", ["train.py"])):
        result = devlint("check", "--no-cache", *paths, cwd=cwd)
        assert "DEV001" in result.stdout and result.returncode == 1, (cwd, result.stdout)
    walked = reported(devlint("check", "--no-cache", ".", cwd=tmp_path))
    assert walked == {"child/train.py", "child/gen/made.py"}


def test_a_broken_nested_config_found_by_the_walk_is_an_error(tmp_path: Path) -> None:
    write(tmp_path / "pyproject.toml", "[tool.devlint]\n")
    write(tmp_path / "sub" / "pyproject.toml", "[tool.devlint]\nselect = 5\n")
    write(tmp_path / "sub" / "train.py", BUGGY)
    result = devlint("check", "--no-cache", ".", cwd=tmp_path)
    assert result.returncode == 2
    assert "sub/pyproject.toml" in result.stderr and "select must be a list" in result.stderr


@pytest.mark.parametrize("content, says", [
    (b'[tool.devlint]\nignore = ["DEV001"]\n# J\xe9r\xf4me\n', "not UTF-8 text"),
    (b'\xef\xbb\xbf[tool.devlint]\nignore = ["DEV001"]\n', "byte order mark"),
])
def test_a_config_that_is_not_utf8_is_an_error_never_skipped(tmp_path: Path, content: bytes,
                                                             says: str) -> None:
    """Repro config_non_utf8_silently_ignored: the table's `ignore` was dropped in silence."""
    (tmp_path / "pyproject.toml").write_bytes(content)
    write(tmp_path / "train.py", BUGGY)
    result = devlint("check", "--no-cache", "train.py", cwd=tmp_path)
    assert result.returncode == 2 and "DEV001" not in result.stdout
    assert "pyproject.toml" in result.stderr and says in result.stderr
