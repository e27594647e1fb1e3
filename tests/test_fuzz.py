"""The engine never raises and never points outside the file, on generated programs and on
mutated fixtures; the prefilter changes no result; `--fix` keeps every file parsing and is
stable; notebooks built from real scripts have the scripts' findings. A bounded slice of
`scripts/fuzz.py`, the long campaign (figures in the README)."""
from __future__ import annotations

import random

import pytest

from devlint.lint.analyze import analyze_source
from devlint.fuzzing import (
    check_broken_cell, check_fix, check_invariants, check_nested_configs, check_notebook,
    check_prefilter, check_project_layout, check_server_edits, mutate,
)

from conftest import ROOT, fixture_files

hypothesis = pytest.importorskip("hypothesis")
hypothesmith = pytest.importorskip("hypothesmith")
from hypothesis import HealthCheck, given, settings  # noqa: E402

SETTINGS = settings(max_examples=60, deadline=None, derandomize=True,
                    suppress_health_check=list(HealthCheck))


@SETTINGS
@given(hypothesmith.from_grammar())
def test_generated_programs_from_the_grammar(source: str) -> None:
    check_invariants(source, analyze_source(source, "generated.py"))


@SETTINGS
@given(hypothesmith.from_node())
def test_generated_programs_from_libcst_nodes(source: str) -> None:
    check_invariants(source, analyze_source(source, "generated.py"))


@pytest.mark.parametrize("seed", range(4))
def test_mutated_fixtures(seed: int) -> None:
    rng = random.Random(seed)
    files = fixture_files()
    for path in rng.sample(files, 40):
        original = path.read_text(encoding="utf-8")
        for _ in range(3):
            text = mutate(original, rng)
            check_invariants(text, analyze_source(text, str(path)))


@pytest.mark.filterwarnings("ignore::SyntaxWarning")
def test_mutations_do_break_files() -> None:
    """The mutator is not a no-op: many mutants no longer compile."""
    rng = random.Random(0)
    texts = [p.read_text(encoding="utf-8") for p in fixture_files()[:50]]
    broken = 0
    for text in texts:
        mutant = mutate(text, rng)
        try:
            compile(mutant, "m.py", "exec", dont_inherit=True, flags=0x400)  # PyCF_ONLY_AST
        except (SyntaxError, ValueError):
            broken += 1
    assert broken >= 10


SCRIPTS = fixture_files() + sorted((ROOT / "examples").glob("*.py"))


@pytest.mark.parametrize("seed", range(2))
def test_the_prefilter_changes_no_result_on_mutants(seed: int) -> None:
    rng = random.Random(seed)
    for path in rng.sample(SCRIPTS, 40):
        check_prefilter(mutate(path.read_text(encoding="utf-8"), rng))


@pytest.mark.parametrize("seed", range(2))
def test_fix_on_mutants_parses_is_stable_and_changes_only_its_edits(seed: int) -> None:
    rng = random.Random(seed)
    for path in rng.sample(SCRIPTS, 30):
        check_fix(mutate(path.read_text(encoding="utf-8"), rng))


@pytest.mark.parametrize("seed", range(2))
def test_notebooks_built_from_real_scripts(seed: int) -> None:
    rng = random.Random(seed)
    for path in rng.sample(SCRIPTS, 40):
        check_notebook(path.read_text(encoding="utf-8"), rng)


@pytest.mark.parametrize("seed", range(2))
def test_notebooks_with_a_cell_that_does_not_parse(seed: int) -> None:
    rng = random.Random(seed)
    for path in rng.sample(SCRIPTS, 15):
        check_broken_cell(path.read_text(encoding="utf-8"), rng)


@pytest.mark.parametrize("seed", range(12))
def test_projects_with_hostile_import_layouts(seed: int, tmp_path) -> None:
    check_project_layout(str(tmp_path), random.Random(seed))


@pytest.mark.parametrize("seed", range(12))
def test_trees_of_nested_configs(seed: int, tmp_path) -> None:
    check_nested_configs(str(tmp_path), random.Random(seed))


def test_the_server_under_random_edits(tmp_path) -> None:
    pytest.importorskip("pygls")
    from devlint.server.client import Client, server_command

    client = Client(server_command(), cwd=tmp_path)
    try:
        client.initialize(tmp_path)
        rng = random.Random(0)
        for path in rng.sample(SCRIPTS, 12):
            check_server_edits(client, str(tmp_path), path.read_text(encoding="utf-8"), rng)
        assert client.shutdown() == 0
    finally:
        client.close()
