"""`devlint server` driven as an editor drives it: JSON-RPC over stdio to a real subprocess.

One server serves the whole module (each test opens documents of its own); the tests that
must crash or exit a server start their own.
"""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("pygls")

from conftest import ONE_BUG_LOOP, bounded  # noqa: E402
from devlint.lint.analyze import analyze_source  # noqa: E402
from devlint.server.client import (  # noqa: E402
    Client, ServerError, apply_text_edits, edits_for, server_command,
)

ROOT = Path(__file__).resolve().parent.parent
BUGGY = (ROOT / "examples" / "buggy_seed_loop.py").read_text(encoding="utf-8")
ONE_BUG = ONE_BUG_LOOP
DEV004_LINE = 11  # 0-based, as LSP counts


@pytest.fixture(scope="module")
def workspace(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("workspace")


@pytest.fixture(scope="module")
def server(workspace: Path):
    client = Client(server_command(), cwd=workspace)
    client.initialize(workspace)
    yield client
    client.close()


class Document:
    """An open document as the editor holds it: its text and version."""

    def __init__(self, client: Client, path: Path, text: str, write: bool = True) -> None:
        if write:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
        self.client, self.uri, self.text, self.version = client, path.as_uri(), text, 1
        client.open(self.uri, text)

    def diagnostics(self) -> list[dict]:
        return self.client.diagnostics(self.uri, self.version)

    def replace(self, text: str) -> list[dict]:
        self.version += 1
        self.text = text
        self.client.change(self.uri, self.version, text)
        return self.diagnostics()

    def apply(self, workspace_edit: dict) -> list[dict]:
        return self.replace(apply_text_edits(self.text, edits_for(workspace_edit, self.uri)))

    def actions(self, diagnostic: dict, only=None) -> list[dict]:
        context = {"diagnostics": [diagnostic], **({"only": only} if only else {})}
        return self.client.request("textDocument/codeAction", {
            "textDocument": {"uri": self.uri}, "range": diagnostic["range"], "context": context})

    def close(self) -> None:
        self.client.notify("textDocument/didClose", {"textDocument": {"uri": self.uri}})
        assert self.client.diagnostics(self.uri) == []  # closing clears its squiggles


def codes(diagnostics: list[dict]) -> list[str]:
    return sorted(d["code"] for d in diagnostics)


def by_code(diagnostics: list[dict], code: str) -> dict:
    return next(d for d in diagnostics if d["code"] == code)


def test_initialize_announces_what_the_server_does(workspace: Path) -> None:
    client = Client(server_command(), cwd=workspace)
    try:
        capabilities = client.initialize(workspace)["capabilities"]
        assert capabilities["textDocumentSync"]["change"] == 2  # incremental
        assert capabilities["textDocumentSync"]["save"]
        assert capabilities["hoverProvider"]
        assert set(capabilities["codeActionProvider"]["codeActionKinds"]) == {
            "quickfix", "source.fixAll.devlint"}
        selector = capabilities["notebookDocumentSync"]["notebookSelector"][0]
        assert selector["notebook"] == "jupyter-notebook"
        assert client.shutdown() == 0
    finally:
        client.close()


def test_exit_without_shutdown_is_status_1(workspace: Path) -> None:
    client = Client(server_command(), cwd=workspace)
    try:
        client.initialize(workspace)
        assert client.exit() == 1  # the protocol's rule
    finally:
        client.close()


def test_the_editor_closing_the_pipe_ends_the_server(workspace: Path) -> None:
    client = Client(server_command(), cwd=workspace)
    try:
        client.initialize(workspace)
        client.process.stdin.close()
        assert client.process.wait(60) == 1
    finally:
        client.close()


def test_a_buggy_file_gets_the_engines_findings(server: Client, workspace: Path) -> None:
    path = workspace / "train.py"
    doc = Document(server, path, BUGGY)
    diagnostics = doc.diagnostics()
    expected = analyze_source(BUGGY, str(path))
    assert [(d["range"]["start"]["line"] + 1, d["range"]["start"]["character"] + 1, d["code"])
            for d in diagnostics] == [(f.line, f.column, f.code) for f in expected]
    assert [d["message"] for d in diagnostics] == [f.message for f in expected]
    dev004 = by_code(diagnostics, "DEV004")
    assert dev004["source"] == "devlint"
    assert dev004["severity"] == 2  # a warning: the file runs, on the CPU at least
    assert "codeDescription" not in dev004  # no home to link to (tests/test_home.py)
    assert dev004["range"]["end"]["character"] - dev004["range"]["start"]["character"] == len("targets")
    related = dev004["relatedInformation"][0]
    assert related["message"] == "model moved here"
    assert related["location"]["uri"] == doc.uri
    assert related["location"]["range"]["start"] == {"line": 14, "character": 8}
    doc.close()


def test_a_quick_fix_applied_leaves_no_diagnostics(server: Client, workspace: Path) -> None:
    doc = Document(server, workspace / "one_bug.py", ONE_BUG)
    [diagnostic] = doc.diagnostics()
    assert diagnostic["code"] == "DEV004" and diagnostic["range"]["start"]["line"] == DEV004_LINE
    fixes = [a for a in doc.actions(diagnostic) if a["title"].startswith("DEV004: move")]
    assert len(fixes) == 1 and fixes[0]["kind"] == "quickfix" and fixes[0]["isPreferred"]
    assert fixes[0]["diagnostics"][0]["code"] == "DEV004"
    # Versioned, so the editor refuses it once the text has moved on.
    assert fixes[0]["edit"]["documentChanges"][0]["textDocument"]["version"] == doc.version
    assert doc.apply(fixes[0]["edit"]) == []
    assert "    targets = targets.to(device)\n" in doc.text
    doc.close()


def test_a_fix_the_gate_refuses_is_never_offered(server: Client, workspace: Path) -> None:
    """Diagnostics go out before the fix gate runs (`Analysis.offered`): a fix the gate refuses
    is still never a quick fix or part of fix-all, as `devlint check` never offers it."""
    from conftest import FIXTURES

    text = (FIXTURES / "DEV006" / "bad_init_hidden_on_cpu.py").read_text(encoding="utf-8")
    [checked] = analyze_source(text, "bad.py")
    assert checked.code == "DEV006" and checked.fix is None  # refused by the gate
    assert analyze_source(text, "bad.py", gate_fixes=False)[0].fix is not None
    doc = Document(server, workspace / "refused_fix.py", text)
    [diagnostic] = doc.diagnostics()
    actions = doc.actions(diagnostic)
    assert [a["title"] for a in actions] == ["DEV006: disable for this line (# noqa)"]
    assert doc.actions(diagnostic, only=["source.fixAll"]) == []
    doc.close()


def test_unsafe_fixes_are_marked_and_fix_all_applies_only_safe_ones(server: Client, workspace: Path) -> None:
    doc = Document(server, workspace / "fix_all.py", BUGGY)
    diagnostics = doc.diagnostics()
    assert codes(diagnostics) == ["DEV001", "DEV002", "DEV003", "DEV004"]
    actions = doc.actions(by_code(diagnostics, "DEV003"))
    [unsafe] = [a for a in actions if a["title"].startswith("DEV003: ")
                and "noqa" not in a["title"]]
    assert "unsafe" in unsafe["title"] and not unsafe.get("isPreferred")
    # Next to an unsafe finding no safe fix is at hand: fix-all is a source action only.
    assert not any(a["title"].startswith("Fix all") for a in actions)
    [fix_all] = doc.actions(by_code(diagnostics, "DEV003"), only=["source.fixAll"])
    assert fix_all["kind"] == "source.fixAll.devlint"
    assert codes(doc.apply(fix_all["edit"])) == ["DEV003"]
    doc.close()


def test_fix_all_is_offered_next_to_a_safe_fix(server: Client, workspace: Path) -> None:
    doc = Document(server, workspace / "fix_all_quick.py", BUGGY)
    actions = doc.actions(by_code(doc.diagnostics(), "DEV001"))
    [fix_all] = [a for a in actions if a["title"] == "Fix all safe devlint findings in this file"]
    assert fix_all["kind"] == "quickfix"
    assert codes(doc.apply(fix_all["edit"])) == ["DEV003"]
    doc.close()


def test_noqa_action_silences_the_finding(server: Client, workspace: Path) -> None:
    text = ONE_BUG.replace("targets)\n", "targets)  # noqa: E501\n")
    doc = Document(server, workspace / "noqa.py", text)
    [diagnostic] = doc.diagnostics()
    [noqa] = [a for a in doc.actions(diagnostic) if "noqa" in a["title"]]
    assert noqa["kind"] == "quickfix"
    assert doc.apply(noqa["edit"]) == []
    assert doc.text.splitlines()[DEV004_LINE].endswith("# noqa: E501, DEV004")
    doc.close()


def test_no_noqa_where_a_comment_would_land_inside_a_string(server: Client, workspace: Path) -> None:
    text = ONE_BUG.replace("targets)\n", 'targets); note = """\n"""\n')
    doc = Document(server, workspace / "noqa_string.py", text)
    [diagnostic] = doc.diagnostics()
    assert not [a for a in doc.actions(diagnostic) if "noqa" in a["title"]]
    doc.close()


def test_hover_on_a_finding_shows_the_rules_docs(server: Client, workspace: Path) -> None:
    from devlint.lint.rules import RULES_BY_CODE

    doc = Document(server, workspace / "hover.py", ONE_BUG)
    [diagnostic] = doc.diagnostics()
    inside = dict(diagnostic["range"]["start"], character=diagnostic["range"]["start"]["character"] + 3)
    hover = server.request("textDocument/hover", {"textDocument": {"uri": doc.uri}, "position": inside})
    assert hover["contents"]["kind"] == "markdown"
    assert RULES_BY_CODE["DEV004"].docs() in hover["contents"]["value"]
    assert diagnostic["message"] in hover["contents"]["value"]
    elsewhere = server.request("textDocument/hover", {
        "textDocument": {"uri": doc.uri}, "position": {"line": 0, "character": 1}})
    assert elsewhere is None
    doc.close()


def test_a_config_change_brings_new_diagnostics(server: Client, workspace: Path) -> None:
    project = workspace / "project"
    pyproject = project / "pyproject.toml"
    project.mkdir()
    pyproject.write_text('[tool.devlint]\nselect = ["DEV"]\n', encoding="utf-8")
    doc = Document(server, project / "train.py", BUGGY)
    assert codes(doc.diagnostics()) == ["DEV001", "DEV002", "DEV003", "DEV004"]
    pyproject.write_text('[tool.devlint]\nignore = ["DEV001", "DEV004"]\n', encoding="utf-8")
    server.notify("workspace/didChangeWatchedFiles",
                  {"changes": [{"uri": pyproject.as_uri(), "type": 2}]})
    assert codes(doc.diagnostics()) == ["DEV002", "DEV003"]
    # A client without file watching: the next save reads the changed file.
    pyproject.write_text('[tool.devlint]\nselect = ["DEV002"]\n', encoding="utf-8")
    server.notify("textDocument/didSave", {"textDocument": {"uri": doc.uri}})
    assert codes(doc.diagnostics()) == ["DEV002"]
    doc.close()


def test_a_broken_config_falls_back_to_the_defaults_and_says_so(server: Client, workspace: Path) -> None:
    project = workspace / "broken"
    project.mkdir()
    (project / "pyproject.toml").write_text("[tool.devlint]\nselect = 3\n", encoding="utf-8")
    doc = Document(server, project / "train.py", ONE_BUG)
    assert codes(doc.diagnostics()) == ["DEV004"]
    shown = server.notification("window/showMessage", lambda p: "select" in p["message"])
    assert "using the default rules" in shown["message"]
    doc.close()


def test_a_broken_config_keeps_the_default_excludes_and_warns_once(workspace: Path) -> None:
    """Repro server_broken_config_drops_default_excludes: with [tool.devlint] broken, a file
    under build/ got diagnostics `devlint check .` never gives, and the warning came twice."""
    project = workspace / "broken_excludes"
    (project / "build").mkdir(parents=True)
    (project / "pyproject.toml").write_text("[tool.devlint]\nselect = 5\n", encoding="utf-8")
    client = Client(server_command(), cwd=workspace)
    try:
        client.initialize(project)
        generated = Document(client, project / "build" / "generated.py", ONE_BUG)
        assert generated.diagnostics() == []
        assert codes(Document(client, project / "train.py", ONE_BUG).diagnostics()) == ["DEV004"]
        assert client.shutdown() == 0
        warnings = [m for m in client.notifications if m["method"] in (
            "window/showMessage", "window/logMessage") and "select" in m["params"]["message"]]
        assert len(warnings) == 1 and warnings[0]["method"] == "window/showMessage"
    finally:
        client.close()


def test_every_request_gets_a_result_or_an_error(workspace: Path) -> None:
    """Repro server_requests_never_answered: params that do not deserialise (a line of -1)
    get InvalidParams, a request after `shutdown` InvalidRequest; neither was answered."""
    client = Client(server_command(), cwd=workspace)
    try:
        client.initialize(workspace)
        doc = Document(client, workspace / "answered.py", ONE_BUG)
        doc.diagnostics()
        hover = {"textDocument": {"uri": doc.uri}, "position": {"line": -1, "character": 0}}
        with pytest.raises(ServerError, match="-32602"):
            client.request("textDocument/hover", hover, timeout=20)
        assert client.request("shutdown", None) is None
        hover["position"]["line"] = 0
        with pytest.raises(ServerError, match="-32600"):
            client.request("textDocument/hover", hover, timeout=20)
        assert client.exit() == 0
    finally:
        client.close()


def test_each_workspace_folder_has_its_own_configuration(workspace: Path) -> None:
    first, second = workspace / "folder_a", workspace / "folder_b"
    for folder, ignore in ((first, "DEV004"), (second, "DEV001")):
        folder.mkdir()
        (folder / "pyproject.toml").write_text(f'[tool.devlint]\nignore = ["{ignore}"]\n', encoding="utf-8")
    client = Client(server_command(), cwd=workspace)
    try:
        client.initialize(first, folders=[first, second])
        assert "DEV004" not in codes(Document(client, first / "a.py", BUGGY).diagnostics())
        assert "DEV001" not in codes(Document(client, second / "b.py", BUGGY).diagnostics())
        assert client.shutdown() == 0
    finally:
        client.close()


def test_an_excluded_file_stays_quiet(server: Client, workspace: Path) -> None:
    project = workspace / "excluding"
    project.mkdir()
    (project / "pyproject.toml").write_text('[tool.devlint]\nexclude = ["vendor"]\n', encoding="utf-8")
    doc = Document(server, project / "vendor" / "lib" / "train.py", BUGGY)
    assert doc.diagnostics() == []
    doc.close()


def test_an_unparsable_file_gets_one_dev999_and_the_server_goes_on(server: Client, workspace: Path) -> None:
    doc = Document(server, workspace / "broken.py", "def f(:\n    pass\n")
    [diagnostic] = doc.diagnostics()
    assert diagnostic["code"] == "DEV999" and diagnostic["severity"] == 1
    assert diagnostic["range"]["start"]["line"] == 0
    assert doc.actions(diagnostic) == []  # nothing to fix or silence: the syntax is wrong
    assert doc.replace(ONE_BUG)[0]["code"] == "DEV004"
    doc.close()


def test_an_unsaved_document_is_checked(server: Client) -> None:
    uri = "untitled:Untitled-1"
    server.open(uri, ONE_BUG)
    assert codes(server.diagnostics(uri)) == ["DEV004"]
    server.notify("textDocument/didClose", {"textDocument": {"uri": uri}})
    assert server.diagnostics(uri) == []


def test_positions_count_utf16_units(server: Client, workspace: Path) -> None:
    text = ONE_BUG.replace("    loss = criterion", '    s = "\U0001F600é"; loss = criterion')
    doc = Document(server, workspace / "emoji.py", text)
    [diagnostic] = doc.diagnostics()
    line = text.splitlines()[DEV004_LINE]
    before = line[:line.index("targets)")]
    assert diagnostic["range"]["start"] == {
        "line": DEV004_LINE, "character": len(before.encode("utf-16-le")) // 2}
    doc.close()


def test_a_ranged_edit_after_a_form_feed_lands_on_its_line(server: Client, workspace: Path) -> None:
    """pygls splits lines with str.splitlines, which breaks at form feeds too; the editor
    counts a line with a form feed in it as one line."""
    text = "import torch\n\x0c\nx = 1\n"
    doc = Document(server, workspace / "form_feed.py", text)
    assert doc.diagnostics() == []
    doc.version += 1
    doc.client.change(doc.uri, doc.version, "", edit={
        "range": {"start": {"line": 2, "character": 4}, "end": {"line": 2, "character": 5}},
        "text": 'torch.device("cuda")'})
    [diagnostic] = doc.diagnostics()
    assert diagnostic["code"] == "DEV001"
    assert diagnostic["range"]["start"] == {"line": 2, "character": len('x = torch.device(')}
    doc.close()


def test_a_stale_analysis_is_dropped(server: Client, workspace: Path) -> None:
    """The open's analysis of a long file is still running when the edit arrives: only the
    edited text's diagnostics are published."""
    long_text = BUGGY + "".join(f"\ndef helper_{i}(x):\n    return x.to('cpu') + {i}\n"
                                for i in range(1500))
    path = workspace / "long.py"
    path.write_text(long_text, encoding="utf-8")
    server.open(path.as_uri(), long_text)
    server.change(path.as_uri(), 2, ONE_BUG)
    first = server.notification("textDocument/publishDiagnostics", lambda p: p["uri"] == path.as_uri())
    assert first["version"] == 2
    assert codes(first["diagnostics"]) == ["DEV004"]
    server.notify("textDocument/didClose", {"textDocument": {"uri": path.as_uri()}})
    assert server.diagnostics(path.as_uri()) == []


def notebook_params(uri: str, cells: list[tuple[str, str]]) -> dict:
    """didOpen of a notebook: (kind, text) cells, kind "code" or "markdown"."""
    return {
        "notebookDocument": {"uri": uri, "notebookType": "jupyter-notebook", "version": 1, "cells": [
            {"kind": 2 if kind == "code" else 1, "document": f"{uri}#cell{i}"}
            for i, (kind, _) in enumerate(cells)]},
        "cellTextDocuments": [
            {"uri": f"{uri}#cell{i}", "languageId": "python" if kind == "code" else "markdown",
             "version": 1, "text": text} for i, (kind, text) in enumerate(cells)],
    }


NOTEBOOK_SETUP = ("import torch\nimport torch.nn as nn\n"
                  "device = torch.device('cuda' if torch.cuda.is_available() else 'cpu')\n"
                  "model = nn.Linear(4, 1).to(device)\n")


def open_notebook(client: Client, uri: str, cells: list[tuple[str, str]]) -> list[list[dict]]:
    """Open it; the diagnostics of each cell."""
    client.notify("notebookDocument/didOpen", notebook_params(uri, cells))
    return [client.diagnostics(f"{uri}#cell{i}") for i in range(len(cells))]


def close_notebook(client: Client, uri: str, cells: int) -> None:
    client.notify("notebookDocument/didClose", {
        "notebookDocument": {"uri": uri},
        "cellTextDocuments": [{"uri": f"{uri}#cell{i}"} for i in range(cells)]})
    for i in range(cells):
        assert client.diagnostics(f"{uri}#cell{i}") == []


def change_cell(client: Client, uri: str, cell: int, version: int, edits: list[dict]) -> list[dict]:
    """Apply a workspace edit's text edits to a cell as the editor reports them: as content
    changes, each on the text the one before left, so from the end backwards."""
    order = sorted(edits, key=lambda e: (e["range"]["start"]["line"], e["range"]["start"]["character"]),
                   reverse=True)
    changes = [{"range": e["range"], "text": e["newText"]} for e in order]
    client.notify("notebookDocument/didChange", {
        "notebookDocument": {"uri": uri, "version": version},
        "change": {"cells": {"textContent": [{
            "document": {"uri": f"{uri}#cell{cell}", "version": version}, "changes": changes}]}},
    })
    return client.diagnostics(f"{uri}#cell{cell}", version=version)


def cell_actions(client: Client, uri: str, diagnostic: dict) -> list[dict]:
    return client.request("textDocument/codeAction", {
        "textDocument": {"uri": uri}, "range": diagnostic["range"],
        "context": {"diagnostics": [diagnostic]}})


def test_a_notebooks_findings_land_in_their_cells(server: Client, workspace: Path) -> None:
    uri = (workspace / "train.ipynb").as_uri()
    loop = "%time\nfor batch, _ in loader:\n    print(model(batch))\n"
    cells = [("code", NOTEBOOK_SETUP), ("markdown", "# Train"), ("code", loop)]
    first, markdown, [diagnostic] = open_notebook(server, uri, cells)
    assert first == [] and markdown == []
    assert diagnostic["code"] == "DEV002"
    assert diagnostic["range"]["start"] == {"line": 2, "character": 16}
    assert "line 4 of cell 1" in diagnostic["message"]
    related = diagnostic["relatedInformation"][0]["location"]
    assert related["uri"] == f"{uri}#cell0" and related["range"]["start"]["line"] == 3
    hover = server.request("textDocument/hover", {
        "textDocument": {"uri": f"{uri}#cell2"}, "position": diagnostic["range"]["start"]})
    assert "# DEV002" in hover["contents"]["value"]
    [fix] = [a for a in cell_actions(server, f"{uri}#cell2", diagnostic) if a["title"].startswith("DEV002: ")
             and "noqa" not in a["title"]]
    edits = edits_for(fix["edit"], f"{uri}#cell2")
    assert apply_text_edits(loop, edits) == loop.replace(
        "_ in loader:\n", "_ in loader:\n    batch = batch.to(device)\n")
    assert change_cell(server, uri, 2, 2, edits) == []
    close_notebook(server, uri, 3)


def test_a_cell_that_does_not_parse_is_its_own_error_and_the_others_are_checked(
        server: Client, workspace: Path) -> None:
    """As `devlint check` reads an .ipynb: the pasted log line is a DEV999 in its cell, and the
    loop in the last cell still meets the model of the first (the whole notebook was one DEV999)."""
    uri = (workspace / "pasted.ipynb").as_uri()
    loop = "for batch, _ in loader:\n    print(model(batch))\n"
    cells = [("code", NOTEBOOK_SETUP), ("code", "Epoch 1/10 loss: 0.53\n"), ("code", loop)]
    first, [broken], [found] = open_notebook(server, uri, cells)
    assert first == []
    assert broken["code"] == "DEV999" and broken["range"]["start"]["line"] == 0
    assert found["code"] == "DEV002"
    close_notebook(server, uri, 3)


def test_a_noqa_in_a_cell_silences_its_finding(server: Client, workspace: Path) -> None:
    uri = (workspace / "noqa.ipynb").as_uri()
    loop = "for batch, _ in loader:\n    print(model(batch))"  # no line break at the end
    _, [diagnostic] = open_notebook(server, uri, [("code", NOTEBOOK_SETUP), ("code", loop)])
    [noqa] = [a for a in cell_actions(server, f"{uri}#cell1", diagnostic) if "noqa" in a["title"]]
    edits = edits_for(noqa["edit"], f"{uri}#cell1")
    assert apply_text_edits(loop, edits).endswith("print(model(batch))  # noqa: DEV002")
    assert change_cell(server, uri, 1, 2, edits) == []
    close_notebook(server, uri, 2)


def test_no_cell_fix_where_the_program_differs_from_the_cell(server: Client, workspace: Path) -> None:
    """In a cell IPython runs unindented, the program's columns are not the cell's."""
    uri = (workspace / "indented.ipynb").as_uri()
    loop = "  for batch, _ in loader:\n      print(model(batch))\n"
    _, [diagnostic] = open_notebook(server, uri, [("code", NOTEBOOK_SETUP), ("code", loop)])
    assert diagnostic["range"]["start"] == {"line": 1, "character": 18}
    titles = [a["title"] for a in cell_actions(server, f"{uri}#cell1", diagnostic)]
    assert titles == ["DEV002: disable for this line (# noqa)"]
    close_notebook(server, uri, 2)


CRASHING = """
import sys
import devlint.server.analysis as analysis

real = analysis.analyze
def analyze(snapshot, selection, memo):
    if "CRASH" in snapshot.cells[0].text:
        raise RuntimeError("injected for the test")
    return real(snapshot, selection, memo)
analysis.analyze = analyze
import devlint.server.lsp as lsp
lsp.analyze = analyze
from devlint.cli import main
sys.exit(main(["server"]))
"""


def test_a_crash_in_one_document_is_logged_and_the_server_goes_on(workspace: Path) -> None:
    client = Client([sys.executable, "-c", CRASHING], cwd=workspace)
    try:
        client.initialize(workspace)
        crashing = Document(client, workspace / "crash.py", "# CRASH\n" + ONE_BUG)
        logged = client.notification("window/logMessage", lambda p: p["type"] == 1)
        assert "internal error" in logged["message"] and "injected for the test" in logged["message"]
        assert crashing.diagnostics() == []
        assert codes(Document(client, workspace / "fine.py", ONE_BUG).diagnostics()) == ["DEV004"]
        assert client.shutdown() == 0
    finally:
        client.close()


BOUNDED = bounded('from devlint.cli import main\nsys.exit(main(["server"]))', 5)


def published(client: Client, uri: str) -> list[dict]:
    return [m for m in client.notifications
            if m["method"] == "textDocument/publishDiagnostics" and m["params"]["uri"] == uri]


def test_an_analysis_is_bounded_and_never_holds_back_another_document(workspace: Path) -> None:
    """Repro server_unbounded_analysis: the server analysed on a thread, with neither the CPU
    budget nor the memory cap of `devlint check`, one document after another: a heavy one held
    every other document's diagnostics back for as long as it ran. (The CPU limit is 5 s here.)"""
    client = Client([sys.executable, "-c", BOUNDED], cwd=workspace)
    try:
        client.initialize(workspace)
        spinning = Document(client, workspace / "spin.py", "# SPIN\n" + ONE_BUG)
        small = Document(client, workspace / "small.py", ONE_BUG)
        assert codes(small.diagnostics()) == ["DEV004"]
        assert published(client, spinning.uri) == []  # still running: it held nothing back
        [stopped] = spinning.diagnostics()
        assert stopped["code"] == "DEV998"
        # its 5 CPU s, or (on a machine too busy to give it them) three times that in wall time
        assert "over 5 s of CPU" in stopped["message"] or "ran past 15 s" in stopped["message"]
        hoarding = Document(client, workspace / "hoard.py", "# HOARD\n" + ONE_BUG)
        [capped] = hoarding.diagnostics()
        assert capped["code"] == "DEV998" and "out of memory" in capped["message"]
        assert client.shutdown() == 0
    finally:
        client.close()


def test_check_never_imports_pygls(workspace: Path) -> None:
    path = workspace / "plain.py"
    path.write_text(ONE_BUG, encoding="utf-8")
    code = ("import sys\nfrom devlint.cli import main\nstatus = main(['check', '--no-cache', sys.argv[1]])\n"
            "print(sorted(m for m in sys.modules if m.split('.')[0] in ('pygls', 'lsprotocol')))\n")
    run = subprocess.run([sys.executable, "-c", code, str(path)], capture_output=True, text=True)
    assert run.stdout.splitlines()[-1] == "[]"


def test_server_without_pygls_says_how_to_install_it() -> None:
    code = ("import sys\nsys.modules['pygls'] = None\nfrom devlint.cli import main\n"
            "sys.exit(main(['server']))\n")
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, input="")
    assert run.returncode == 2
    assert "pip install 'devlint[lsp]'" in run.stderr
    assert len(run.stderr.strip().splitlines()) == 1


def test_the_memo_answers_a_text_it_has_seen_and_forgets_the_oldest() -> None:
    from devlint.core.selection import Selection
    from devlint.server.analysis import Memo

    memo, computed = Memo(size=2), []

    def compute(name):
        return lambda: computed.append(name) or [name]

    assert memo.get(b"a", Selection(), compute("a")) == ["a"]
    assert memo.get(b"a", Selection(), compute("again")) == ["a"]
    assert memo.get(b"a", Selection(ignore=("DEV001",)), compute("other rules")) == ["other rules"]
    memo.get(b"b", Selection(), compute("b"))  # a third entry: the oldest goes
    memo.get(b"a", Selection(), compute("a recomputed"))
    assert computed == ["a", "other rules", "b", "a recomputed"]


def test_client_apply_follows_lsp_ordering() -> None:
    """The test client itself: inserts at one position keep their order."""
    edits = [{"range": {"start": {"line": 0, "character": 1}, "end": {"line": 0, "character": 1}}, "newText": t}
             for t in ("a", "b")]
    assert apply_text_edits("xy", edits) == "xaby"


def test_an_open_model_file_gets_what_its_importers_runs_show(server: Client, tmp_path: Path) -> None:
    """As `devlint check model.py`: the CPU tensor in `forward` that train.py's values reach,
    with the call that reached it; gone once the file is fixed and saved."""
    import shutil

    project = tmp_path / "forward_noise"
    shutil.copytree(ROOT / "fixtures" / "projects" / "forward_noise", project)
    model = project / "model.py"
    doc = Document(server, model, model.read_text(encoding="utf-8"), write=False)
    (found,) = doc.diagnostics()
    assert found["code"] == "DEV006" and "(reached from " in found["message"]
    fixed = doc.text.replace("torch.randn(x.shape)", "torch.randn_like(x)")
    model.write_text(fixed, encoding="utf-8")
    assert doc.replace(fixed) == []
    doc.close()


def test_the_memo_sees_an_imported_file_change(tmp_path: Path) -> None:
    from devlint.core.selection import Selection
    from devlint.server.analysis import Memo

    (tmp_path / ".git").mkdir()
    (tmp_path / "config.py").write_text('import torch\nDEVICE = torch.device("cpu")\n')
    train = tmp_path / "train.py"
    text = ("import torch\nfrom config import DEVICE\nmodel = torch.nn.Linear(4, 1).to(DEVICE)\n"
            "x = torch.randn(2, 4).cuda()\nprint(model(x))\n")
    train.write_text(text)
    memo, computed = Memo(), []

    def findings():
        return memo.get(text.encode(), Selection(), lambda: computed.append(1) or analyze_source(
            text, str(train)), path=str(train))

    findings()
    findings()
    assert len(computed) == 1  # unchanged: served from the memo
    (tmp_path / "config.py").write_text(
        'import torch\nDEVICE = torch.device("cuda" if torch.cuda.is_available() else "cpu")\n')
    findings()
    assert len(computed) == 2  # the imported file changed: analysed again
