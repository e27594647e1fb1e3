"""Jupyter notebooks: code cells checked as one program, reported and fixed per cell."""
from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

from devlint.workspace.cache import Cache
from devlint.cli import main
from devlint.lint.notebooks import analyze_notebook
from devlint.workspace.notebook import cell_source, load
from devlint.lint.runner import check_files
from devlint.core.selection import Selection

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


def _notebook(*sources, **cell) -> dict:
    return {"cells": [{"cell_type": "code", "execution_count": None, "metadata": {}, "outputs": [],
                       "source": source, **cell} for source in sources],
            "metadata": {}, "nbformat": 4, "nbformat_minor": 5}


@pytest.mark.parametrize("source", [
    ["msg = ('loss %.3f'\n", "       % 0.5)\n", "print(msg)\n"],  # black's style
    ["a, b = 1, 2\n", "if (a\n", "    != b):\n", "    print('x')\n"],
    ["x = (10\n", "% 3)\n"],
    ['s = """\n', "%matplotlib inline\n", "!ls\n", '"""\n'],
    ["total = 1 + \\\n", "    2\n"],
    ["caption = 'pasted\u2028text'\n", "print(caption)\n"],
    ["caption = 'a\x0cb\x1cc\x85d\u2029e'\n"],
])
def test_valid_python_in_a_cell_is_never_a_parse_error(source: list[str], tmp_path: Path) -> None:
    assert compile("".join(source), "cell", "exec")
    data = json.dumps(_notebook(source)).encode()
    assert analyze_notebook(data, "nb.ipynb") == []


def test_ipython_lines_start_statements_only() -> None:
    source = ["import torch\n", "%time model = torch.nn.Linear(4, 1)\n", "!nvidia-smi\n",
              "files = !ls\n", "if True:\n", "    %timeit torch.zeros(3).cuda()\n",
              "x = torch.zeros(3).cuda()\n"]
    findings = analyze_notebook(json.dumps(_notebook(source)).encode(), "nb.ipynb")
    assert [(f.line, f.code) for f in findings] == [(7, "DEV001")]


def test_ipython_help_lines_with_wildcards_and_comments_are_not_python() -> None:
    """`torch.*Tensor?` (a wildcard search) and `torch.nn.Module?  # read me` are IPython help
    lines: a course notebook of them was two false DEV999 (held-out set 4)."""
    source = ["import torch\n", "torch.*Tensor?\n", "torch.nn.Module??  # the source\n",
              "x = torch.zeros(3).cuda()\n"]
    findings = analyze_notebook(json.dumps(_notebook(source)).encode(), "nb.ipynb")
    assert [(f.line, f.code) for f in findings] == [(4, "DEV001")]


def test_a_move_that_ends_a_cell_is_displayed_not_discarded() -> None:
    """Jupyter shows a cell's last expression: `m.to(device)` alone at the end of a cell is the
    tutorial showing the copy (the next cell's `m.numpy()` needs `m` on the CPU), no DEV005.
    Followed by another statement in its cell, it is thrown away (held-out set 4)."""
    setup = ["import torch\n", "device = torch.device('cuda' if torch.cuda.is_available() else 'cpu')\n",
             "m = torch.zeros(2, 3)\n"]
    shown = _notebook(setup, ["m.to(device)\n"], ["print(m.numpy())\n"])
    assert analyze_notebook(json.dumps(shown).encode(), "nb.ipynb") == []
    dropped = _notebook(setup, ["m.to(device)\n", "print(m.sum())\n"])
    assert [f.code for f in analyze_notebook(json.dumps(dropped).encode(), "nb.ipynb")] == ["DEV005"]


def test_the_line_of_a_finding_after_a_line_separator_is_python_s(tmp_path: Path) -> None:
    source = ["import torch\n", "caption = 'a\u2028b'\n", "x = torch.zeros(3).cuda()\n"]
    findings = analyze_notebook(json.dumps(_notebook(source)).encode(), "nb.ipynb")
    assert [(f.line, f.code) for f in findings] == [(3, "DEV001")]


def test_fix_never_reindents_inside_a_string(tmp_path: Path) -> None:
    source = ["  import torch\n", "  sql = '''\n", "SELECT *\n", "FROM t\n", "'''\n",
              "  x = torch.zeros(3)\n",
              "  x.to(torch.device('cuda' if torch.cuda.is_available() else 'cpu'))\n",
              "  print(x)\n"]  # (the move does not end the cell: a last expression is displayed)
    path = tmp_path / "indented.ipynb"
    path.write_text(json.dumps(_notebook(source), indent=1) + "\n")
    assert main(["check", "--fix", "--no-cache", str(path)]) == 0
    new = load(path.read_bytes())["cells"][0]["source"]
    assert new[:6] == source[:6]  # the string's lines, byte for byte
    assert new[6] == "  x = x.to(torch.device('cuda' if torch.cuda.is_available() else 'cpu'))\n"


def test_fix_of_a_crlf_escaped_notebook_changes_only_the_fixed_line(tmp_path: Path) -> None:
    notebook = _notebook(["import torch\n", "x = torch.zeros(3)\n",
                          "x.to(torch.device('cuda' if torch.cuda.is_available() else 'cpu'))\n",
                          "print(x)\n"],
                         ["print('unchanged \u00e9')"])
    notebook["cells"][0]["outputs"] = [{"output_type": "stream", "name": "stdout",
                                        "text": ["caf\u00e9 \u2603\n"]}]
    notebook["metadata"] = {"x": 1e-05, "big": 1.5e+300}
    original = json.dumps(notebook, indent=1).replace("\n", "\r\n").encode()
    assert b"\\u00e9" in original and b"\r\n" in original
    path = tmp_path / "crlf.ipynb"
    path.write_bytes(original)
    assert main(["check", "--fix", "--no-cache", str(path)]) == 0
    before, after = original.split(b"\r\n"), path.read_bytes().split(b"\r\n")
    assert len(before) == len(after)
    changed = [(a, b) for a, b in zip(before, after) if a != b]
    assert changed == [(b'    "x.to(torch.device(\'cuda\' if torch.cuda.is_available() else \'cpu\'))\\n",',
                        b'    "x = x.to(torch.device(\'cuda\' if torch.cuda.is_available() else \'cpu\'))\\n",')]


def test_a_fix_that_adds_lines_keeps_the_cell_style(tmp_path: Path) -> None:
    source = ("import torch\r\nmodel = torch.nn.Linear(4, 1).to('cpu')\r\n"
              "for x, y in loader:\r\n    out = model(x)")  # one string, CRLF, no final newline
    notebook = _notebook(source)
    notebook["cells"][0]["source"] = source
    path = tmp_path / "one_string.ipynb"
    path.write_text(json.dumps(notebook, indent=2))
    main(["check", "--fix", "--no-cache", str(path)])
    new = load(path.read_bytes())["cells"][0]["source"]
    assert isinstance(new, str) and not new.endswith("\n") and "\n" not in new.replace("\r\n", "")


def test_a_non_string_in_a_source_list_is_a_malformed_notebook(tmp_path: Path, capsys) -> None:
    (tmp_path / "odd.ipynb").write_text(json.dumps(_notebook(["import torch\n", 7])))
    assert main(["check", "--no-cache", str(tmp_path / "odd.ipynb")]) == 1
    out = capsys.readouterr()
    assert "DEV999 cannot parse: not a notebook: cell 1 has no source text" in out.out
    assert "internal error" not in out.err


def test_a_cell_indented_after_a_blank_first_line_is_dedented_as_ipython_does() -> None:
    """Found by the fuzz campaign: IPython drops leading blank lines before it takes the
    indent away; devlint took it from the blank line (none), and reported DEV999."""
    source = ["\n", "\tdef f():\n", "\t    return 1\n", "\tx = torch.zeros(3).cuda()\n"]
    findings = analyze_notebook(json.dumps(_notebook(["import torch\n"], source)).encode(), "nb.ipynb")
    assert [(f.path, f.cell, f.line, f.column, f.code) for f in findings] == [("nb.ipynb", 2, 4, 21, "DEV001")]


def test_a_shell_line_continued_by_backslashes_is_one_ipython_line() -> None:
    """`!pip install -q -U \\` then indented package names (diffusers' sd3 Colab notebook):
    the continuation lines are the shell command's, never Python's (was a false DEV999)."""
    source = ["!pip install -q -U \\\n", "    transformers \\\n", "    accelerate\n",
              "import torch\n", "x = torch.zeros(3).cuda()\n"]
    findings = analyze_notebook(json.dumps(_notebook(source)).encode(), "nb.ipynb")
    assert [(f.line, f.code) for f in findings] == [(5, "DEV001")]


def test_a_cell_that_does_not_parse_is_one_dev999_and_the_other_cells_are_analysed() -> None:
    """Repro notebook_broken_cell_hides_others: pasted log text in one cell made the whole
    notebook one DEV999, hiding the other cells' findings. Jupyter runs the others."""
    notebook = _notebook(["import torch\n", "device = torch.device('cuda')\n"],
                         ["Epoch 1/10 loss: 0.53 acc: 81%\n"],
                         ["model = torch.nn.Linear(2, 2).cuda()\n"])
    findings = analyze_notebook(json.dumps(notebook).encode(), "nb.ipynb")
    assert [(f.cell, f.line, f.column, f.code) for f in findings] == [
        (1, 2, 23, "DEV001"), (2, 1, 7, "DEV999"), (3, 1, 31, "DEV001")]
    assert findings[1].message.startswith("cannot parse: ")


def test_the_other_cells_are_the_program_without_the_broken_one(tmp_path: Path) -> None:
    """The model moved in cell 1 meets the loop in cell 3 across a broken cell 2 (a shell line
    without its `!`, in a loop); --fix changes the good cells and leaves the broken one as it is."""
    notebook = _notebook(["import torch\n", "model = torch.nn.Linear(2, 2).to('cuda:0' if torch.cuda.is_available() else 'cpu')\n"],
                         ["for i in range(3):\n", "    pip install torch\n"],
                         ["from torch.utils.data import DataLoader\n", "for x, y in DataLoader([]):\n", "    out = model(x)\n"])
    findings = analyze_notebook(json.dumps(notebook).encode(), "nb.ipynb")
    assert {(f.cell, f.code) for f in findings} == {(2, "DEV999"), (3, "DEV002")}
    path = tmp_path / "nb.ipynb"
    path.write_text(json.dumps(notebook, indent=1))
    main(["check", "--fix", "--no-cache", str(path)])
    cells = [cell_source(c) for c in load(path.read_bytes())["cells"]]
    assert cells[1] == "for i in range(3):\n    pip install torch\n"
    assert "x.to(" in cells[2]


def test_a_line_magic_without_its_percent_is_ipython_automagic_not_a_broken_cell() -> None:
    """`cd ..` and `matplotlib inline` at the start of a line run as `%cd ..` and
    `%matplotlib inline` (IPython's automagic is on by default): the cell runs, and its code is
    checked. Indented in a loop, `pip install torch` stays a line Python and Jupyter refuse."""
    notebook = _notebook(["cd ..\n", "matplotlib inline\n", "import torch\n", "x = torch.ones(2).cuda()\n"],
                         ["for i in range(3):\n", "    pip install torch\n"])
    findings = analyze_notebook(json.dumps(notebook).encode(), "nb.ipynb")
    assert [(f.cell, f.line, f.code) for f in findings] == [(1, 4, "DEV001"), (2, 2, "DEV999")]


def test_dev001_is_one_finding_per_cell_in_a_notebook_without_a_fallback() -> None:
    """A notebook's cells run one at a time: each cell that hard-codes CUDA is where a run fails,
    and its literals are one root cause, one finding."""
    notebook = _notebook(["import torch\n", "x = torch.ones(2, device='cuda')\n", "w = torch.zeros(2, device='cuda')\n"],
                         ["y = torch.zeros(2, device='cuda')\n"])
    findings = analyze_notebook(json.dumps(notebook).encode(), "nb.ipynb")
    assert [(f.cell, f.line, f.code) for f in findings] == [(1, 2, "DEV001"), (2, 1, "DEV001")]
    assert "this cell hard-codes CUDA in 1 more place (the next at line 3 of cell 1)" in findings[0].message


def test_dev001_counts_a_later_cell_reached_only_past_a_cells_crash() -> None:
    """`model.cuda()` in the first cell stops a machine without a GPU there (set 58's siren
    notebook: four later cells each used the model that cell had moved): the later cells' CUDA
    literals are that crash's consequences, counted in its finding, not findings of their own."""
    notebook = _notebook(["import torch\n", "model = torch.nn.Linear(2, 2).cuda()\n", "x = torch.ones(2).cuda()\n"],
                         ["y = model(torch.zeros(2, device='cuda'))\n"])
    findings = analyze_notebook(json.dumps(notebook).encode(), "nb.ipynb")
    assert [(f.cell, f.line, f.code) for f in findings] == [(1, 2, "DEV001")]
    assert ("a machine without a GPU stops here; this cell, and the cells a run reaches only past "
            "this line, hard-code CUDA in 2 more places (the next at line 3 of cell 1)") in findings[0].message


@pytest.mark.parametrize("metadata, codes", [
    ({"kernelspec": {"language": "julia", "name": "julia-1.9"}}, []),
    ({"language_info": {"name": "R"}}, []),
    ({"kernelspec": {"language": "python", "name": "python3"}}, ["DEV999"]),
    ({}, ["DEV999"]),
])
def test_a_notebook_of_another_language_is_not_python_to_check(metadata, codes) -> None:
    """A Julia or R kernel's cells are not Python (set 40's Navier-Stokes data notebook gave six
    false DEV999): nothing in them is devlint's to check. A Python notebook, or one whose
    metadata does not say, still gets its syntax errors."""
    notebook = _notebook(["using LinearAlgebra\n", "A = rand(4, 4)\n"])
    notebook["metadata"] = metadata
    found = analyze_notebook(json.dumps(notebook).encode(), "nb.ipynb")
    assert [f.code for f in found] == codes


def test_a_cell_magic_after_comment_lines_hides_its_cell() -> None:
    """yolov5's tutorial: `# Unit tests` then `%%shell` and a bash loop. Colab runs the cell as
    shell; it is not Python, so no DEV999, and the next cell is still checked."""
    notebook = _notebook(["# Unit tests\n", "%%shell\n", "for m in yolov5s; do\n", "  python train.py --weights $m.pt\n", "done\n"],
                         ["import torch\n", "x = torch.ones(2).cuda()\n"])
    findings = analyze_notebook(json.dumps(notebook).encode(), "nb.ipynb")
    assert [(f.cell, f.line, f.code) for f in findings] == [(2, 2, "DEV001")]
