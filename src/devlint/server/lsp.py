"""`devlint server`: the protocol side. Events from the editor schedule analyses; worker
processes run them (`server.workers`), off the event loop and bounded as `devlint check`
bounds a file, so the server keeps answering and one document's long analysis never holds
back another's diagnostics.

Every event that changes what a document holds bumps its generation. An analysis belongs to
the generation it was started for: one that a newer edit overtook is skipped if it has not
started, and its result dropped if it has, so diagnostics never describe older text than the
editor shows. Changes are debounced; opening and saving analyse at once.
"""
from __future__ import annotations

import asyncio
import sys
import traceback
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Optional

from lsprotocol import types
from pygls.capabilities import get_capability
from pygls.exceptions import JsonRpcException
from pygls.protocol import LanguageServerProtocol
from pygls.protocol.json_rpc import RPCRequest
from pygls.lsp.server import LanguageServer
from pygls.uris import to_fs_path
from pygls.workspace import TextDocument, Workspace

from devlint import __version__
from devlint.server.actions import FIX_ALL, Client, code_actions, hover
from devlint.server.analysis import (
    Analysis, Cell, Snapshot, analyze_in_worker, cannot_analyse_snapshot,
)
from devlint.server.diagnostics import diagnostic
from devlint.server.positions import PositionMap, split_lines
from devlint.server.projects import Projects
from devlint.server.workers import Workers

# The pause in typing before an analysis starts, set by `benchmarks/server_latency.py` on a
# 1,036-line file (2 cores, 2026-12-03, interleaved): 150 ms gave a median 314 ms from a key to
# its diagnostics, 75 ms 221 ms, 40 ms 183 ms (p90 200 ms), and a burst of keys 120 ms apart
# waited a median 202 ms after its last key at 40 ms. An analysis costs about 145 ms there,
# so while one types every key may start one, and the stale ones' results are dropped.
DEBOUNCE_S = 0.04


def debounce_from_environment(default: float = DEBOUNCE_S) -> float:
    """`DEVLINT_DEBOUNCE_MS`, the pause in typing before an analysis starts (the benchmark
    tries several); the default where it is unset or not a number of milliseconds."""
    import os

    try:
        value = float(os.environ.get("DEVLINT_DEBOUNCE_MS", ""))
    except ValueError:
        return default
    return value / 1000 if 0 <= value <= 5000 else default


CONFIG_FILE = "pyproject.toml"
NOTEBOOKS = types.NotebookDocumentSyncOptions(
    notebook_selector=[types.NotebookDocumentFilterWithCells(
        notebook="jupyter-notebook", cells=[types.NotebookCellLanguage(language="python")],
    )],
    save=True,
)


class LspTextDocument(TextDocument):
    """pygls applies incremental edits line by line with `str.splitlines`, which also breaks at
    form feeds and U+2028: an edit below such a line would land on the wrong line."""

    @property
    def lines(self):
        return tuple(split_lines(self.source))


_ANSWERED = object()  # a request already answered with an error while it was read


class LspProtocol(LanguageServerProtocol):
    """Every request gets a result or an error, as JSON-RPC requires: pygls drops a request
    whose params do not deserialise (a position with line -1) after logging it, and any request
    after `shutdown`, where LSP asks for InvalidRequest; a client awaiting either would hang."""

    def structure_message(self, data):
        try:
            return super().structure_message(data)
        except JsonRpcException as exc:
            if not ("id" in data and "method" in data):
                raise
            self._send_response(data["id"], error=exc.to_response_error())
            return _ANSWERED

    def handle_message(self, message) -> None:
        if message is _ANSWERED:
            return
        if self._shutdown and isinstance(message, RPCRequest) and message.method != types.EXIT:
            self._send_response(message.id, error=types.ResponseError(
                code=types.ErrorCodes.InvalidRequest,
                message=f"{message.method}: the server is shutting down (shutdown was requested)"))
            return
        super().handle_message(message)


class LspWorkspace(Workspace):
    def _create_text_document(self, doc_uri, source=None, version=None, language_id=None):
        return LspTextDocument(doc_uri, source=source, version=version, language_id=language_id,
                               sync_kind=self._sync_kind, position_codec=self._position_codec)


def _plain(method):
    """pygls marks its handlers with attributes, which a bound method cannot carry."""
    if asyncio.iscoroutinefunction(method):
        async def handler(*args):
            return await method(*args)
    else:
        def handler(*args):
            return method(*args)
    return handler


class DevlintServer:
    def __init__(self, debounce: Optional[float] = None) -> None:
        self.ls = LanguageServer("devlint", __version__, notebook_document_sync=NOTEBOOKS,
                                 text_document_sync_kind=types.TextDocumentSyncKind.Incremental,
                                 protocol_cls=LspProtocol)
        self.debounce = debounce_from_environment() if debounce is None else debounce
        self.projects = Projects()
        # Analyses run in worker processes (`server.workers`), a thread waiting on each; one
        # more thread for the code actions, so they never queue behind a long analysis.
        self.workers = Workers()
        self.executor = ThreadPoolExecutor(max_workers=self.workers.size + 1,
                                           thread_name_prefix="devlint-analysis")
        self.generations: dict[str, int] = {}  # the open documents and notebooks
        self.timers: dict[str, asyncio.TimerHandle] = {}
        self.latest: dict[str, Analysis] = {}
        self.announced: set[str] = set()
        self.client = Client()
        self.shutdown_requested = False
        self._register()

    # -- the protocol ------------------------------------------------------------------------

    def _register(self) -> None:
        handlers = {
            types.INITIALIZE: self.initialize,
            types.INITIALIZED: self.initialized,
            types.SHUTDOWN: self.shutdown,
            types.TEXT_DOCUMENT_DID_OPEN: self.did_open,
            types.TEXT_DOCUMENT_DID_CHANGE: self.did_change,
            types.TEXT_DOCUMENT_DID_SAVE: self.did_save,
            types.TEXT_DOCUMENT_DID_CLOSE: self.did_close,
            types.NOTEBOOK_DOCUMENT_DID_OPEN: self.notebook_did_open,
            types.NOTEBOOK_DOCUMENT_DID_CHANGE: self.notebook_did_change,
            types.NOTEBOOK_DOCUMENT_DID_SAVE: self.notebook_did_save,
            types.NOTEBOOK_DOCUMENT_DID_CLOSE: self.notebook_did_close,
            types.WORKSPACE_DID_CHANGE_WATCHED_FILES: self.watched_files_changed,
            types.WORKSPACE_DID_CHANGE_WORKSPACE_FOLDERS: self.folders_changed,
            types.TEXT_DOCUMENT_CODE_ACTION: self.code_action,
            types.TEXT_DOCUMENT_HOVER: self.hover,
        }
        options = {types.TEXT_DOCUMENT_CODE_ACTION: types.CodeActionOptions(
            code_action_kinds=[types.CodeActionKind.QuickFix, FIX_ALL])}
        for method, handler in handlers.items():
            self.ls.feature(method, options.get(method))(_plain(handler))

    def initialize(self, params: types.InitializeParams) -> None:
        old = self.ls.workspace
        self.ls.protocol._workspace = LspWorkspace(
            old.root_uri, types.TextDocumentSyncKind.Incremental, list(old.folders.values()),
            old.position_encoding)
        self._set_folders()
        self.client = Client(
            encoding=types.PositionEncodingKind(old.position_encoding or "utf-16").value,
            versioned=bool(get_capability(params.capabilities,
                                          "workspace.workspace_edit.document_changes", False)))

    def initialized(self, params: types.InitializedParams) -> None:
        if not get_capability(self.ls.client_capabilities,
                              "workspace.did_change_watched_files.dynamic_registration", False):
            return  # a configuration edit is then seen at the next edit or save
        self.ls.client_register_capability(types.RegistrationParams([types.Registration(
            id="devlint-config", method=types.WORKSPACE_DID_CHANGE_WATCHED_FILES,
            register_options=types.DidChangeWatchedFilesRegistrationOptions(
                watchers=[types.FileSystemWatcher(glob_pattern=f"**/{CONFIG_FILE}")]),
        )]))

    def shutdown(self, *params) -> None:
        self.shutdown_requested = True
        for timer in self.timers.values():
            timer.cancel()
        self.timers.clear()

    def did_open(self, params: types.DidOpenTextDocumentParams) -> None:
        document = params.text_document
        if self._checked(document.uri, document.language_id):
            self._touch(document.uri, 0)

    def did_change(self, params: types.DidChangeTextDocumentParams) -> None:
        if params.text_document.uri in self.generations:
            self._touch(params.text_document.uri, self.debounce)

    def did_save(self, params: types.DidSaveTextDocumentParams) -> None:
        uri = params.text_document.uri
        if uri.endswith(f"/{CONFIG_FILE}"):
            self._config_changed()
        elif uri in self.generations:
            self._schedule(uri, 0)  # the text is what was analysed; the project may not be

    def did_close(self, params: types.DidCloseTextDocumentParams) -> None:
        self._forget(params.text_document.uri, [params.text_document.uri])

    def notebook_did_open(self, params: types.DidOpenNotebookDocumentParams) -> None:
        self._touch(params.notebook_document.uri, 0)

    def notebook_did_change(self, params: types.DidChangeNotebookDocumentParams) -> None:
        uri = params.notebook_document.uri
        self._touch(uri, self.debounce)
        structure = params.change.cells.structure if params.change.cells else None
        for closed in (structure.did_close or []) if structure else []:
            self._publish(closed.uri, [], None)  # a deleted cell keeps no squiggles

    def notebook_did_save(self, params: types.DidSaveNotebookDocumentParams) -> None:
        self._schedule(params.notebook_document.uri, 0)

    def notebook_did_close(self, params: types.DidCloseNotebookDocumentParams) -> None:
        self._forget(params.notebook_document.uri, [c.uri for c in params.cell_text_documents])

    def watched_files_changed(self, params: types.DidChangeWatchedFilesParams) -> None:
        if any(change.uri.endswith(f"/{CONFIG_FILE}") for change in params.changes):
            self._config_changed()

    def folders_changed(self, params: types.DidChangeWorkspaceFoldersParams) -> None:
        self._set_folders()
        self._config_changed()  # an unsaved document takes the first folder's configuration

    async def code_action(self, params: types.CodeActionParams) -> Optional[list[types.CodeAction]]:
        uri = params.text_document.uri
        analysis = await self._current(self._key(uri))
        if analysis is None:
            return None
        version = next((c.version for c in analysis.snapshot.cells if c.uri == uri), None)
        return await self._in_worker(code_actions, analysis, uri, version, params.range,
                                     params.context.only, self.client)

    async def hover(self, params: types.HoverParams) -> Optional[types.Hover]:
        uri = params.text_document.uri
        analysis = await self._current(self._key(uri))
        return None if analysis is None else hover(analysis, uri, params.position, self.client)

    # -- scheduling --------------------------------------------------------------------------

    def _checked(self, uri: str, language_id: Optional[str]) -> bool:
        return language_id == "python" or uri.endswith(".py")

    def _key(self, uri: str) -> str:
        """A cell's analysis is its notebook's."""
        notebook = self.ls.workspace.get_notebook_document(cell_uri=uri)
        return notebook.uri if notebook is not None else uri

    def _touch(self, key: str, delay: float) -> None:
        self.generations[key] = self.generations.get(key, 0) + 1
        self._schedule(key, delay)

    def _schedule(self, key: str, delay: float) -> None:
        if self.shutdown_requested:
            return
        timer = self.timers.pop(key, None)
        if timer is not None:
            timer.cancel()
        loop = asyncio.get_running_loop()
        self.timers[key] = loop.call_later(delay, self._start, key)

    def _start(self, key: str) -> None:
        self.timers.pop(key, None)
        asyncio.ensure_future(self._refresh(key))

    async def _refresh(self, key: str) -> None:
        snapshot = self._snapshot(key)
        if snapshot is None:
            return
        analysis = await self._in_worker(self._analyze, snapshot, True)
        if analysis is not None and self._is_current(analysis):
            self._accept(analysis)

    async def _current(self, key: str) -> Optional[Analysis]:
        """The analysis of the text the editor shows now, for a request about it."""
        latest = self.latest.get(key)
        if latest is not None and self._is_current(latest):
            return latest
        snapshot = self._snapshot(key)
        if snapshot is None:
            return None
        analysis = await self._in_worker(self._analyze, snapshot, False)
        if analysis is not None and self._is_current(analysis):
            timer = self.timers.pop(key, None)
            if timer is not None:
                timer.cancel()  # its analysis would only repeat this one
            self._accept(analysis)
        return analysis

    async def _in_worker(self, function, *args):
        try:
            return await asyncio.get_running_loop().run_in_executor(self.executor, function, *args)
        except RuntimeError:  # the executor is shut down: the server is exiting
            return None

    def _is_current(self, analysis: Analysis) -> bool:
        return self.generations.get(analysis.snapshot.key) == analysis.snapshot.generation

    def _config_changed(self) -> None:
        self.projects.clear()
        for key in self.generations:
            self._schedule(key, 0)

    def _forget(self, key: str, uris: list[str]) -> None:
        self.generations.pop(key, None)
        self.latest.pop(key, None)
        timer = self.timers.pop(key, None)
        if timer is not None:
            timer.cancel()
        for uri in uris:
            self._publish(uri, [], None)

    def _set_folders(self) -> None:
        workspace = self.ls.workspace
        uris = [folder.uri for folder in workspace.folders.values()] or [workspace.root_uri]
        paths = [to_fs_path(uri) for uri in uris if uri]
        self.projects.folders = [Path(p).resolve() for p in paths if p]

    # -- snapshots and results ---------------------------------------------------------------

    def _snapshot(self, key: str) -> Optional[Snapshot]:
        """What the key holds now, read on the event loop, the only thread that changes it."""
        generation = self.generations.get(key)
        if generation is None:
            return None
        workspace = self.ls.workspace
        notebook = workspace.get_notebook_document(notebook_uri=key)
        path = to_fs_path(key)
        if notebook is None:
            document = workspace.get_text_document(key)
            cells = (Cell(key, document.version, document.source),)
        else:
            cells = tuple(self._cell(workspace, cell) for cell in notebook.cells)
        return Snapshot(key, generation, Path(path) if path else None, cells, notebook is not None)

    def _cell(self, workspace: Workspace, cell: types.NotebookCell) -> Cell:
        document = workspace.get_text_document(cell.document)
        code = cell.kind == types.NotebookCellKind.Code and document.language_id in (None, "python")
        return Cell(cell.document, document.version, document.source, code)

    def _analyze(self, snapshot: Snapshot, skip_stale: bool) -> Optional[Analysis]:
        """In the worker thread. Never raises: a bug in devlint costs one document's
        diagnostics and a line in the client's log, never the server."""
        if skip_stale and self.generations.get(snapshot.key) != snapshot.generation:
            return None  # a newer edit has its own analysis queued
        try:
            settings = self.projects.settings(snapshot.path)
            stale = (lambda: self.generations.get(snapshot.key) != snapshot.generation) \
                if skip_stale else (lambda: False)
            status, value = self.workers.run(snapshot.key, analyze_in_worker,
                                             (snapshot, settings.selection), stale)
            if status == "stale":
                return None
            if status == "error":
                return Analysis(snapshot, [], error=value)
            if status == "stopped":
                value = cannot_analyse_snapshot(snapshot, settings.selection, value)
            analysis = Analysis(snapshot, value, settings.problem)
            encoding = self.client.encoding
            maps = {cell.uri: PositionMap(cell.text, encoding) for cell in snapshot.cells}
            analysis.diagnostics = {cell.uri: [] for cell in snapshot.cells}
            for placed in analysis.placed:
                analysis.diagnostics[placed.uri].append(diagnostic(placed, maps))
            return analysis
        except Exception as exc:
            error = f"{type(exc).__name__}: {exc}\n{traceback.format_exc()}"
            return Analysis(snapshot, [], error=error)

    def _accept(self, analysis: Analysis) -> None:
        """On the event loop: keep and publish a current analysis."""
        snapshot = analysis.snapshot
        self.latest[snapshot.key] = analysis
        if analysis.error:
            self._log(types.MessageType.Error,
                      f"devlint: internal error while analysing {snapshot.label}: {analysis.error}")
        if analysis.problem and analysis.problem not in self.announced:
            self.announced.add(analysis.problem)  # one warning, shown (editors log it too)
            self.ls.window_show_message(types.ShowMessageParams(
                type=types.MessageType.Warning, message=f"devlint: {analysis.problem}"))
        for cell in snapshot.cells:
            self._publish(cell.uri, analysis.diagnostics.get(cell.uri, []), cell.version)

    def _publish(self, uri: str, diagnostics: list[types.Diagnostic],
                 version: Optional[int]) -> None:
        self.ls.text_document_publish_diagnostics(
            types.PublishDiagnosticsParams(uri=uri, diagnostics=diagnostics, version=version))

    def _log(self, kind: types.MessageType, message: str) -> None:
        self.ls.window_log_message(types.LogMessageParams(type=kind, message=message))

    # -- running -----------------------------------------------------------------------------

    def serve(self) -> int:
        """Speak LSP on stdin and stdout until `exit`; 0 after a `shutdown` request, else 1."""
        stdin, stdout = sys.stdin.buffer, sys.stdout.buffer
        # A stray print anywhere would corrupt the protocol stream: stdout is the client's.
        sys.stdout = sys.stderr
        try:
            self.ls.start_io(stdin, stdout)
        finally:
            self.executor.shutdown(wait=False, cancel_futures=True)
            self.workers.close()
        return 0 if self.shutdown_requested else 1
