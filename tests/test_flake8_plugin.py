"""The flake8 plugin through flake8's real CLI: same findings as `devlint check`, flake8's options.

flake8 finds the plugin through the `flake8.extension` entry point of the installed package, so
these tests need devlint installed (`pip install -e .`), as the README's test command does.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from collections import defaultdict
from pathlib import Path

import pytest

from conftest import FIXTURES, ROOT, bounded, expected_findings, fixture_sample

FORMAT = "%(path)s|%(row)d|%(col)d|%(code)s"
BUGGY = textwrap.dedent(
    """\
    import torch
    device = torch.device("cuda")
    """
)

Positions = dict[str, set[tuple[int, int, str]]]


def flake8(*args: str, cwd: Path = ROOT, stdin: str | None = None) -> subprocess.CompletedProcess:
    # --isolated: no setup.cfg, tox.ini, .flake8 or user config can change the result.
    return subprocess.run(
        [sys.executable, "-m", "flake8", "--isolated", *args], cwd=cwd, input=stdin,
        capture_output=True, text=True, timeout=300,
    )


def flake8_positions(*args: str, cwd: Path = ROOT) -> Positions:
    result = flake8(f"--format={FORMAT}", *args, cwd=cwd)
    assert result.returncode in (0, 1), result.stderr
    assert "Traceback" not in result.stderr, result.stderr
    found: Positions = defaultdict(set)
    for line in result.stdout.splitlines():
        path, row, col, code = line.rsplit("|", 3)
        found[os.path.normpath(cwd / path)].add((int(row), int(col), code))
    return found


# A third of each rule's fixtures, the notebooks and every fixture project (`fixture_sample`):
# flake8 and devlint agree file by file, so the whole tree adds time and no case.
# (flake8 reads Python files only: the notebooks stay out)
SAMPLE = [str(p.relative_to(ROOT)) for p in fixture_sample() if p.suffix != ".ipynb"]


@pytest.fixture(scope="module")
def devlint_positions() -> Positions:
    """`devlint check <the sample> --format json`, once for the module."""
    result = subprocess.run(
        [sys.executable, "-m", "devlint", "check", *SAMPLE, "--format", "json"], cwd=ROOT,
        capture_output=True, text=True, timeout=300,
    )
    assert result.returncode == 1, result.stderr
    payload = json.loads(result.stdout)
    assert not payload["errors"]
    found: Positions = defaultdict(set)
    for f in payload["findings"]:
        found[os.path.normpath(ROOT / f["path"])].add((f["line"], f["column"], f["code"]))
        # a root cause the run reports once (lint.root_causes) is each file's own under flake8
        for place in f.get("same_cause", ()):
            found[os.path.normpath(ROOT / place["path"])].add((place["line"], place["column"], f["code"]))
    return found


def compare(flake8_found: Positions, devlint_found: Positions, files: list[Path]) -> None:
    assert files
    mismatches = {}
    for path in files:
        got, want = flake8_found.get(str(path), set()), devlint_found.get(str(path), set())
        if got != want:
            name = str(path.relative_to(ROOT))
            mismatches[name] = {"flake8": sorted(got), "devlint": sorted(want)}
    assert not mismatches, json.dumps(mismatches, indent=1)
    # Nothing outside the fixtures was reported (e.g. a stray path spelling).
    assert set(flake8_found) <= {str(p) for p in files}


def test_flake8_matches_devlint_on_the_fixture_sample_in_parallel(devlint_positions: Positions) -> None:
    # the fixture projects too: each flake8 worker reads the imported files for itself (a file
    # that does not parse is flake8's E999, not DEV999; one libcst refuses is DEV998 in both)
    files = [p for p in fixture_sample() if p.suffix == ".py"] + [
        p for p in sorted((FIXTURES / "projects").rglob("*.py"))
        if not any(code == "DEV999" for _, code in expected_findings(p))]
    found = flake8_positions("--select", "DEV", "-j", "2", *SAMPLE)
    assert sum(map(len, found.values())) > 0
    compare(found, devlint_positions, files)


def test_serial_flake8_gives_the_same_result(devlint_positions: Positions) -> None:
    files = [p for p in fixture_sample() if p.parent == FIXTURES / "DEV001"]
    found = flake8_positions("--select", "DEV", "-j", "1", *(str(p.relative_to(ROOT)) for p in files))
    compare(found, devlint_positions, files)


def test_stdin_with_display_name() -> None:
    result = flake8("--select", "DEV", "--stdin-display-name", "train.py", "-", stdin=BUGGY)
    assert result.returncode == 1, result.stderr
    assert result.stdout.startswith("train.py:2:23: DEV001 hard-coded device 'cuda'"), result.stdout


def test_noqa_silences_only_the_codes_it_names(tmp_path: Path) -> None:
    (tmp_path / "train.py").write_text(
        "import torch\n"
        'a = torch.device("cuda")  # noqa: DEV001\n'
        'b = torch.device("cuda")  # noqa\n'
        'c = torch.device("cuda")  # noqa: E501\n'
        'd = torch.device("cuda")\n',
        encoding="utf-8",
    )
    found = flake8_positions("--select", "DEV", "train.py", cwd=tmp_path)
    # Lines 4 and 5 are not silenced; the file never chooses a device with a fallback, so
    # they are one root cause and one finding, on the first of them that no comment silences.
    assert {(row, code) for row, _, code in found[str(tmp_path / "train.py")]} == {
        (4, "DEV001"),
    }


def test_extend_select_and_select_are_flake8s(tmp_path: Path) -> None:
    (tmp_path / "train.py").write_text(BUGGY + "import os\n", encoding="utf-8")
    extended = flake8_positions("--extend-select", "DEV", "train.py", cwd=tmp_path)
    codes = {code for _, _, code in extended[str(tmp_path / "train.py")]}
    assert {"DEV001", "F401"} <= codes
    only_pyflakes = flake8_positions("--select", "F", "train.py", cwd=tmp_path)
    assert {code for _, _, code in only_pyflakes[str(tmp_path / "train.py")]} == {"F401"}
    ignored = flake8_positions("--extend-ignore", "DEV001", "train.py", cwd=tmp_path)
    assert "DEV001" not in {code for _, _, code in ignored[str(tmp_path / "train.py")]}


def test_per_file_ignores(tmp_path: Path) -> None:
    (tmp_path / "gpu_only").mkdir()
    (tmp_path / "gpu_only" / "train.py").write_text(BUGGY, encoding="utf-8")
    (tmp_path / "train.py").write_text(BUGGY, encoding="utf-8")
    found = flake8_positions(
        "--select", "DEV", "--per-file-ignores", "gpu_only/*:DEV001", ".", cwd=tmp_path
    )
    assert set(found) == {str(tmp_path / "train.py")}


def test_syntax_errors_are_flake8s_e999_not_dev999(tmp_path: Path) -> None:
    (tmp_path / "broken.py").write_text('device = torch.device("cuda"\n', encoding="utf-8")
    found = flake8_positions("--select", "DEV,E999", "broken.py", cwd=tmp_path)
    assert {code for _, _, code in found[str(tmp_path / "broken.py")]} == {"E999"}


def test_version_lists_the_plugin() -> None:
    result = flake8("--version")
    assert result.returncode == 0, result.stderr
    assert "devlint" in result.stdout


PROBE = textwrap.dedent(
    """\
    import json, sys
    import devlint.flake8_plugin as plugin
    lines = sys.stdin.read().splitlines(keepends=True)
    findings = list(plugin.DevlintChecker(None, lines, "t.py").run())
    print(json.dumps({
        "findings": [[row, col, text] for row, col, text, _ in findings],
        "libcst": "libcst" in sys.modules,
        "engine": "devlint.lint.analyze" in sys.modules,
    }))
    """
)


def probe(source: str) -> dict:
    result = subprocess.run(
        [sys.executable, "-c", PROBE], input=source, capture_output=True, text=True, timeout=120
    )
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def test_files_without_trigger_words_never_import_libcst() -> None:
    source = "import os\n\n\ndef main():\n    return os.listdir('.')\n"
    report = probe(source)
    assert report == {"findings": [], "libcst": False, "engine": False}


def test_files_with_trigger_words_are_analyzed() -> None:
    report = probe(BUGGY)
    assert report["libcst"] and report["engine"]
    assert [row for row, _, _ in report["findings"]] == [2]
    row, col, text = report["findings"][0]
    assert (row, col) == (2, 22)  # flake8 columns are 0-based; devlint prints 23
    assert text.startswith("DEV001 hard-coded device 'cuda'")


CACHED_PROBE = textwrap.dedent(
    """\
    import json, sys
    import devlint.flake8_plugin as plugin
    with open(sys.argv[1], encoding="utf-8") as handle:
        lines = handle.read().splitlines(keepends=True)
    findings = list(plugin.DevlintChecker(None, lines, sys.argv[1]).run())
    import devlint.workspace.cache as cache
    cache.process_cache().save()
    print(json.dumps({
        "findings": [text.split()[0] for _, _, text, _ in findings],
        "libcst": "libcst" in sys.modules,
        "engine": "devlint.lint.analyze" in sys.modules,
    }))
    """
)


def test_a_file_whose_findings_are_cached_is_answered_without_the_engine(tmp_path: Path) -> None:
    """A warm worker looks its file up in devlint's cache: importing libcst and the rules to
    answer from it cost a warm flake8 run most of the plugin's share."""
    (tmp_path / "pyproject.toml").write_text("", encoding="utf-8")
    (tmp_path / "train.py").write_text(BUGGY, encoding="utf-8")
    env = dict(os.environ, DEVLINT_CACHE_DIR=str(tmp_path / "cache"))

    def run() -> dict:
        done = subprocess.run([sys.executable, "-c", CACHED_PROBE, "train.py"], cwd=tmp_path,
                              env=env, capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, done.stderr
        return json.loads(done.stdout)

    cold = run()
    assert cold == {"findings": ["DEV001"], "libcst": True, "engine": True}
    assert run() == {"findings": ["DEV001"], "libcst": False, "engine": False}


def test_every_rule_has_prefilter_requirements() -> None:
    from devlint.lint.prefilter import REQUIREMENTS
    from devlint.lint.rules import ALL_RULES

    assert set(REQUIREMENTS) == {rule.code for rule in ALL_RULES}


def test_importing_the_plugin_is_cheap() -> None:
    code = (
        "import sys, devlint.flake8_plugin\n"
        "heavy = sorted(m for m in ('libcst', 'torch', 'devlint.lint.analyze', 'devlint.lint.rules')"
        " if m in sys.modules)\n"
        "print(','.join(heavy))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == ""


def _shadow_project(tmp_path: Path, config: str) -> Path:
    for n in range(4):
        (tmp_path / f"t{n}.py").write_text(BUGGY)
    (tmp_path / "setup.cfg").write_text(textwrap.dedent(config))
    return tmp_path


def _flake8_with_config(cwd: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "flake8", *args, "."], cwd=cwd,
                          capture_output=True, text=True, timeout=300)


def test_ignoring_d_for_docstrings_drops_devlint_and_says_so_once(tmp_path: Path) -> None:
    """`extend-ignore = D` (pydocstyle off) also matches DEV: one warning names the remedy."""
    project = _shadow_project(tmp_path, """\
        [flake8]
        extend-ignore = D
        """)
    result = _flake8_with_config(project, "-j", "2")
    assert result.returncode == 0 and "DEV001" not in result.stdout
    warnings = [line for line in result.stderr.splitlines() if line.startswith("devlint: warning:")]
    from devlint.lint.rules import ALL_RULES

    # the real range, from the rules themselves: every rule code, then DEV998
    codes = f"{ALL_RULES[0].code}-{ALL_RULES[-1].code}, DEV998"
    assert warnings == ["devlint: warning: flake8 ignores 'D', which also drops every devlint finding "
                        f"({codes}); add `extend-select = DEV` to the flake8 config (or pass "
                        "--extend-select DEV) to keep them"]


def test_the_documented_remedy_keeps_devlint_with_d_ignored(tmp_path: Path) -> None:
    project = _shadow_project(tmp_path, """\
        [flake8]
        extend-ignore = D
        extend-select = DEV
        """)
    result = _flake8_with_config(project)
    assert result.returncode == 1 and result.stdout.count(": DEV001 ") == 4
    assert "devlint: warning" not in result.stderr


def test_ignoring_dev_itself_is_a_choice_and_no_warning(tmp_path: Path) -> None:
    result = flake8("--extend-ignore", "DEV", str(_shadow_project(tmp_path, "")))
    assert result.returncode == 0 and result.stderr == ""


def test_the_docs_give_the_remedy() -> None:
    docs = (ROOT / "docs" / "ci.md").read_text(encoding="utf-8")
    assert "extend-ignore = D" in docs and "extend-select = DEV" in docs


def test_a_file_devlint_cannot_analyse_is_dev998_under_flake8_too(tmp_path: Path) -> None:
    """CPython (and so flake8) accepts it, libcst does not: never a silent pass."""
    (tmp_path / "t.py").write_text(BUGGY + "(threshold): float = 0.5\n")
    result = flake8("--select", "DEV", "t.py", cwd=tmp_path)
    assert result.returncode == 1, result.stderr
    assert result.stdout.startswith("t.py:3:1: DEV998 devlint cannot analyse this file: ")


def test_the_plugin_follows_imports_of_the_project_as_devlint_check_does() -> None:
    """flake8 hands the plugin one file at a time: its imports of the project's own files are
    still read (summaries cached per flake8 process)."""
    projects = FIXTURES / "projects"
    expected = {(str(Path(p).relative_to(projects)), line, code)
                for p, found in _devlint_positions(projects).items() for line, _, code in found}
    assert any(code == "DEV002" for _, _, code in expected)
    got = {(str(Path(p).relative_to(projects)), line, code)
           for p, found in flake8_positions("--select=DEV", "--jobs=1", ".", cwd=projects).items()
           for line, _, code in found if code != "E999"}
    assert got == {e for e in expected if e[2] != "DEV999"}


def _devlint_positions(folder: Path) -> Positions:
    result = subprocess.run([sys.executable, "-m", "devlint", "check", "--no-cache", "--format",
                             "json", "."], cwd=folder, capture_output=True, text=True, timeout=300)
    found: Positions = defaultdict(set)
    for f in json.loads(result.stdout)["findings"]:
        found[str(folder / f["path"])].add((f["line"], f["column"], f["code"]))
        for place in f.get("same_cause", ()):  # each file's own under flake8
            found[str(folder / place["path"])].add((place["line"], place["column"], f["code"]))
    return found


BOUNDED = bounded('from flake8.main.cli import main\nsys.exit(main(sys.argv[1:]))', 2)


def test_flake8_analyses_under_the_same_cpu_and_memory_budget(tmp_path: Path) -> None:
    """One budget wherever devlint analyses: under flake8 too, an analysis past the CPU
    limit (2 s here) or the memory cap is the file's DEV998, and the other files are checked."""
    for name, marker in (("spin.py", "# SPIN"), ("hoard.py", "# HOARD"), ("fine.py", "")):
        (tmp_path / name).write_text(f"{marker}\nimport torch\nx = torch.zeros(3).cuda()\n")
    result = subprocess.run([sys.executable, "-c", BOUNDED, "--isolated", "--select", "DEV", "--jobs", "1", "."],
                            cwd=tmp_path, capture_output=True, text=True, timeout=300)
    lines = sorted(result.stdout.splitlines())
    assert [line.split(":")[0] for line in lines] == ["./fine.py", "./hoard.py", "./spin.py"], result
    assert "DEV001" in lines[0]
    assert "DEV998" in lines[1] and "out of memory" in lines[1]
    assert "DEV998" in lines[2] and "over 2 s of CPU" in lines[2]


def _rewrite_cached_messages(cache: Path, message: str) -> int:
    """Every finding row of devlint's cache index under `cache` says `message` now; how many."""
    (index,) = cache.glob("devlint-*.json")
    payload = json.loads(index.read_text())
    count = 0
    for rows in payload["entries"].values():
        for row in rows:
            row[3] = message
            count += 1
    index.write_text(json.dumps(payload))
    return count


def test_flake8_reads_and_writes_devlints_cache(tmp_path: Path) -> None:
    """Each flake8 worker writes what it analysed into devlint's cache when it ends, and a
    second run reads it instead of analysing: a hand-edited entry is what it reports."""
    for name in ("a.py", "b.py"):
        (tmp_path / name).write_text(BUGGY + f"# {name}\n")  # two entries: keys are of bytes
    env = dict(os.environ, DEVLINT_CACHE_DIR=str(tmp_path / "cache"))

    def run() -> list[str]:
        result = subprocess.run([sys.executable, "-m", "flake8", "--isolated", "--select", "DEV",
                                 "--jobs", "2", "a.py", "b.py"], cwd=tmp_path, env=env,
                                capture_output=True, text=True, timeout=300)
        assert result.returncode == 1 and "Traceback" not in result.stderr, result
        return sorted(result.stdout.splitlines())

    first = run()
    assert len(first) == 2 and all("DEV001" in line for line in first)
    assert _rewrite_cached_messages(tmp_path / "cache", "kept in the cache") == 2
    assert run() == ["a.py:2:23: DEV001 kept in the cache", "b.py:2:23: DEV001 kept in the cache"]
    (tmp_path / "b.py").write_text(BUGGY + "\n")  # other bytes: analysed again
    assert [line.endswith("kept in the cache") for line in run()] == [True, False]


def test_flake8_reads_an_importers_run_from_the_cache(tmp_path: Path) -> None:
    """What train.py's run shows in model.py is kept with train.py's entry: flake8 checking
    model.py alone takes it from there instead of analysing train.py again."""
    import shutil

    shutil.copytree(FIXTURES / "projects" / "forward_noise", tmp_path / "p")
    env = dict(os.environ, DEVLINT_CACHE_DIR=str(tmp_path / "cache"))

    def run() -> str:
        result = subprocess.run([sys.executable, "-m", "flake8", "--isolated", "--select", "DEV",
                                 "model.py"], cwd=tmp_path / "p", env=env, capture_output=True,
                                text=True, timeout=300)
        assert "Traceback" not in result.stderr, result
        return result.stdout

    assert "DEV006" in run() and "(reached from " in run()
    assert _rewrite_cached_messages(tmp_path / "cache", "reached, from the cache") >= 1
    assert run().splitlines() == [
        "model.py:13:17: DEV006 reached, from the cache (reached from evaluate.py:11)"]


def test_a_second_flake8_run_in_one_process_sees_a_changed_dependency(tmp_path: Path, monkeypatch) -> None:
    """The plugin remembers what a run read of the project's files (their digests, where
    imports resolve) only for that run: flake8 used as a library in a long-lived process runs
    again, and an importer's run that stood on a file since changed is redone."""
    from flake8.api import legacy
    from flake8.main.options import JobsArgument

    files = {
        "pyproject.toml": "",
        "settings.py": "import torch\n\nDEVICE = torch.device('cuda' if torch.cuda.is_available() else 'cpu')\n",
        "model.py": textwrap.dedent("""\
            import torch
            import torch.nn as nn


            class Denoiser(nn.Module):
                def __init__(self):
                    super().__init__()
                    self.net = nn.Linear(16, 16)

                def forward(self, x):
                    return self.net(x + torch.randn(x.shape))
            """),
        "train.py": textwrap.dedent("""\
            import torch

            from model import Denoiser
            from settings import DEVICE

            model = Denoiser().to(DEVICE)
            x = torch.randn(4, 16, device=DEVICE)
            print(model(x))
            """),
    }
    for name, text in files.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("DEVLINT_CACHE_DIR", str(tmp_path / ".cache"))

    def dev_codes() -> list:
        # settings.py second: train.py's run, kept from model.py's check, is asked whether it
        # still holds, which reads settings.py and the imports into the run's memory
        report = legacy.get_style_guide(select=["DEV"], jobs=JobsArgument("1")).check_files(["model.py", "settings.py"])
        return report.get_statistics("DEV")  # "1 DEV006 <message>" per code

    first = dev_codes()
    assert first and "DEV006" in first[0]
    (tmp_path / "settings.py").write_text("import torch\n\nDEVICE = torch.device('cpu')\n",
                                          encoding="utf-8")
    assert dev_codes() == []


COUNTING = textwrap.dedent("""\
    import os, sys
    import devlint.lint.analyze as analyze

    real = analyze.analyze_bytes

    def counted(data, path, *args, **kwargs):
        with open(os.environ["ANALYSES_LOG"], "a") as log:
            log.write(os.path.basename(str(path)) + "\\n")
        return real(data, path, *args, **kwargs)

    analyze.analyze_bytes = counted
    from flake8.main.cli import main
    main(sys.argv[1:])
    """)


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_one_flake8_run_analyses_each_file_once(jobs: str, tmp_path: Path) -> None:
    """The main process checks the run's files before flake8's workers start, and each
    worker's `run()` takes its file's findings, and what the importers' runs show in it, from
    there: evaluate.py and train.py, which import model.py, are not analysed again for
    model.py's sake (each flake8 worker did so before, twice the CPU of `devlint check`)."""
    import shutil

    shutil.copytree(FIXTURES / "projects" / "forward_noise", tmp_path / "p")
    log = tmp_path / "analyses.log"
    env = dict(os.environ, DEVLINT_CACHE_DIR=str(tmp_path / "cache"), ANALYSES_LOG=str(log))
    result = subprocess.run([sys.executable, "-c", COUNTING, "--isolated", "--select", "DEV",
                             "--jobs", jobs, "."], cwd=tmp_path / "p", env=env,
                            capture_output=True, text=True, timeout=300)
    assert "Traceback" not in result.stderr, result
    assert "DEV006" in result.stdout and "(reached from " in result.stdout, result
    analysed = log.read_text().split()
    assert sorted(analysed) == ["evaluate.py", "model.py", "train.py"], analysed


def test_a_file_with_crlf_line_ends_is_the_file_flake8_read(tmp_path: Path) -> None:
    """flake8 reads with universal newlines: a CRLF file reaches the plugin with `\\n` line ends.
    It is still the file on disk, so its cached outcome stands (comparing the raw text analysed
    every such file again on every warm run); an edited text is not."""
    from devlint import flake8_plugin as plugin

    path = tmp_path / "train.py"
    path.write_bytes(BUGGY.replace("\n", "\r\n").encode())
    with open(path, encoding="utf-8") as handle:  # universal newlines, as flake8 reads
        read = handle.read()
    assert "\r" not in read
    outcome = plugin._through_cache(str(path), read)
    assert outcome is not None
    assert [(f.line, f.code) for f in outcome.findings] == [(2, "DEV001")]
    assert plugin._through_cache(str(path), read.replace("cuda", "cpu")) is None
