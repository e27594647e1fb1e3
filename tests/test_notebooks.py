"""Jupyter notebooks: code cells checked as one program, reported and fixed per cell."""
from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

from devlint.workspace.cache import Cache
from devlint.cli import main
from devlint.workspace.notebook import analyze_notebook, cell_source, load
from devlint.lint.runner import check_files
from devlint.lint.selection import Selection

from conftest import EXPECTATION, FIXTURES

NOTEBOOKS = sorted((FIXTURES / "notebooks").glob("*.ipynb"))


def expected(path: Path) -> set[tuple[str, int, str]]:
    found = set()
    for number, cell in enumerate(load(path.read_bytes())["cells"], start=1):
        for line_no, line in enumerate(cell_source(cell).splitlines(), start=1):
            match = EXPECTATION.search(line)
            if match and cell.get("cell_type") == "code":
                for code in re.split(r"\s*,\s*", match.group("codes")):
                    found.add((f"cell_{number}", line_no, code))
    return found


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_findings_are_the_marked_cell_lines(path: Path) -> None:
    findings = analyze_notebook(path.read_bytes(), str(path))
    assert all(f.path == str(path) for f in findings)
    got = {(f"cell_{f.cell}", f.line, f.code) for f in findings}
    assert got == expected(path)
    assert path.name.startswith("good_") == (not got)


def test_messages_name_lines_by_cell() -> None:
    path = FIXTURES / "notebooks" / "bad_training_loop.ipynb"
    finding = next(f for f in analyze_notebook(path.read_bytes(), str(path)) if f.code == "DEV002")
    assert "line 2 of cell 3" in finding.message  # where `model` was moved


@pytest.fixture
def copies(tmp_path: Path) -> Path:
    for path in NOTEBOOKS:
        shutil.copy(path, tmp_path / path.name)
    return tmp_path


def test_fix_rewrites_only_the_changed_cells_and_the_result_is_a_valid_notebook(copies: Path, capsys) -> None:
    nbformat = pytest.importorskip("nbformat")
    before = {p.name: p.read_bytes() for p in copies.glob("*.ipynb")}
    assert main(["check", "--fix", "--no-cache", str(copies)]) == 0
    for name, old_bytes in before.items():
        new_bytes = (copies / name).read_bytes()
        nbformat.validate(nbformat.reads(new_bytes.decode("utf-8"), as_version=4))
        old, new = json.loads(old_bytes), json.loads(new_bytes)
        assert {k: v for k, v in old.items() if k != "cells"} == {k: v for k, v in new.items() if k != "cells"}
        for old_cell, new_cell in zip(old["cells"], new["cells"]):
            assert {k: v for k, v in old_cell.items() if k != "source"} == {
                k: v for k, v in new_cell.items() if k != "source"}  # outputs, ids, metadata kept
            for line in cell_source(old_cell).splitlines():
                if line.lstrip().startswith(("%", "!")):
                    assert line in cell_source(new_cell).splitlines()  # IPython lines kept
        if name.startswith("good_"):
            assert new_bytes == old_bytes  # untouched, byte for byte
        else:
            assert new_bytes != old_bytes
            changed = [n for n, (a, b) in enumerate(zip(old["cells"], new["cells"]), 1) if a != b]
            assert all(old["cells"][n - 1]["cell_type"] == "code" for n in changed)
            if name == "bad_training_loop.ipynb":
                assert changed == [7]  # the loop's cell only
    capsys.readouterr()
    assert main(["check", "--no-cache", str(copies)]) == 0
    again = {p.name: p.read_bytes() for p in copies.glob("*.ipynb")}
    assert main(["check", "--fix", "--no-cache", str(copies)]) == 0
    assert again == {p.name: p.read_bytes() for p in copies.glob("*.ipynb")}  # idempotent


@pytest.mark.parametrize("content", [b"{not json", b'{"cells": 3}', b"\xff\xfe", b'{"cells": [{"source": 7}]}'])
def test_a_malformed_notebook_is_one_line_and_the_run_goes_on(tmp_path: Path, content: bytes, capsys) -> None:
    (tmp_path / "broken.ipynb").write_bytes(content)
    shutil.copy(FIXTURES / "notebooks" / "bad_hard_coded_cuda.ipynb", tmp_path / "ok.ipynb")
    assert main(["check", "--no-cache", str(tmp_path)]) == 1
    out = capsys.readouterr().out
    broken = [l for l in out.splitlines() if "broken.ipynb" in l]
    assert len(broken) == 1 and broken[0].startswith(f"{tmp_path / 'broken.ipynb'}:1:1: DEV999 cannot parse: not a notebook")
    assert "ok.ipynb:cell_1:2:" in out and "Traceback" not in out
    assert main(["check", "--fix", "--no-cache", str(tmp_path / "broken.ipynb")]) == 1
    assert (tmp_path / "broken.ipynb").read_bytes() == content


def test_cached_notebook_findings_keep_their_cells(tmp_path: Path) -> None:
    path = FIXTURES / "notebooks" / "bad_training_loop.ipynb"
    cold = Cache.open(tmp_path)
    first = list(check_files([path], lambda p: Selection(), cold))[0].findings
    cold.save()
    warm = Cache.open(tmp_path)
    second = list(check_files([path], lambda p: Selection(), warm))[0].findings
    assert warm.hits == 1 and second == first and first[0].cell == 7 and first[0].in_file is not None


def test_a_cell_indented_as_a_whole_runs_in_ipython_and_is_checked_so(tmp_path: Path, capsys) -> None:
    """IPython drops the first line's indent from a cell; seen in real course notebooks,
    where it was a false DEV999."""
    notebook = {"cells": [{"cell_type": "code", "metadata": {}, "outputs": [], "execution_count": None,
                           "source": [" import torch\n", " model = torch.nn.Linear(4, 1).cuda()\n", " model"]}],
                "metadata": {}, "nbformat": 4, "nbformat_minor": 5}
    path = tmp_path / "indented.ipynb"
    path.write_text(json.dumps(notebook, indent=1) + "\n")
    findings = analyze_notebook(path.read_bytes(), str(path))
    assert [(f.line, f.column, f.code) for f in findings] == [(2, 32, "DEV001")]
    assert " model = torch.nn.Linear(4, 1).cuda()"[31:].startswith("cuda()")  # 1-based 32
    assert main(["check", "--fix", "--no-cache", str(path)]) == 0
    source = cell_source(load(path.read_bytes())["cells"][0])
    assert all(line.startswith(" ") for line in source.splitlines() if line)  # indent kept
    assert "cuda()" not in source


def notebook_with_escapes(indent, ensure_ascii: bool, as_list: bool) -> str:
    """Escapes before the finding on its line: each moves it in the file, not in the cell."""
    cells = [
        {"cell_type": "markdown", "metadata": {"source": "a key named source"}, "source": "# Title"},
        {"cell_type": "code", "metadata": {}, "outputs": [], "execution_count": None,
         "source": 'import torch\nmodel = torch.nn.Linear(4, 1)\n'},
        {"cell_type": "code", "metadata": {}, "outputs": [], "execution_count": None,
         "source": 's = "café \\"q\\"\\t"; d = torch.device(\'cuda\')\nmodel.to(d)\n'},
    ]
    for cell in cells:
        if as_list:
            cell["source"] = cell["source"].splitlines(keepends=True)
    return json.dumps({"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 5},
                      indent=indent, ensure_ascii=ensure_ascii)


def at(text: str, place: dict, length: int) -> str:
    line = text.split("\n")[place["line"] - 1]
    return line[place["column"] - 1: place["column"] - 1 + length]


@pytest.mark.parametrize("indent, ensure_ascii, as_list", [
    (1, False, True), (None, True, True), (2, True, False), (None, False, False),
])
def test_every_format_names_the_real_file_the_cell_and_a_place_in_its_text(
        tmp_path: Path, capsys, indent, ensure_ascii: bool, as_list: bool) -> None:
    """GitHub annotations named `file=nb.ipynb%3Acell_3`, SARIF put cell lines on the .ipynb
    and JSON's path was `nb.ipynb:cell_3`: no viewer could open any of them."""
    path = tmp_path / "nb.ipynb"
    text = notebook_with_escapes(indent, ensure_ascii, as_list)
    path.write_text(text, encoding="utf-8")

    assert main(["check", "--no-cache", str(path)]) == 1
    assert capsys.readouterr().out.startswith(f"{path}:cell_3:1:38: DEV001 ")

    assert main(["check", "--no-cache", "--format", "json", str(path)]) == 1
    finding = json.loads(capsys.readouterr().out)["findings"][0]
    assert (finding["path"], finding["cell"], finding["line"], finding["column"]) == (str(path), 3, 1, 38)
    assert at(text, finding["in_file"], 6) == "'cuda'"

    assert main(["check", "--no-cache", "--format", "github", str(path)]) == 1
    where = finding["in_file"]
    assert capsys.readouterr().out.startswith(
        f"::error file={path},line={where['line']},col={where['column']},title=DEV001::DEV001 "
        "(cell 3, line 1) ")

    assert main(["check", "--no-cache", "--format", "sarif", str(path)]) == 1
    location = json.loads(capsys.readouterr().out)["runs"][0]["results"][0]["locations"][0]
    assert location["physicalLocation"]["artifactLocation"]["uri"].endswith("nb.ipynb")
    region = location["physicalLocation"]["region"]
    assert at(text, {"line": region["startLine"], "column": region["startColumn"]}, 6) == "'cuda'"
    assert location["logicalLocations"] == [{"name": "cell 3", "kind": "module"}]


def test_a_related_location_names_its_own_cell(tmp_path: Path, capsys) -> None:
    path = FIXTURES / "notebooks" / "bad_training_loop.ipynb"
    text = path.read_text(encoding="utf-8")
    assert main(["check", "--no-cache", "--format", "sarif", str(path)]) == 1
    result = json.loads(capsys.readouterr().out)["runs"][0]["results"][0]
    related = result["relatedLocations"][0]
    assert result["locations"][0]["logicalLocations"][0]["name"] == "cell 7"
    assert related["logicalLocations"][0]["name"] == "cell 3"
    assert related["message"]["text"] == "model moved here (cell 3)"
    region = related["physicalLocation"]["region"]
    assert at(text, {"line": region["startLine"], "column": region["startColumn"]}, 15) == "nn.Linear(4, 3)"
