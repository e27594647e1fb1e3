"""A minimal LSP client over stdio: it starts a server process and speaks JSON-RPC to it as an
editor would. The tests and `benchmarks/server_latency.py` drive `devlint server` with it.

Standard library only, and written apart from the server's code (its own framing, its own
UTF-16 positions), so a mistake in the server cannot be mirrored by the client testing it.
"""
from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any, Callable, Optional, Sequence

TIMEOUT_S = 60.0  # generous: the machine running the tests may be busy

CAPABILITIES = {  # what VS Code announces, for the parts devlint uses
    "general": {"positionEncodings": ["utf-16"]},
    "textDocument": {
        "synchronization": {"didSave": True, "dynamicRegistration": False},
        "publishDiagnostics": {"relatedInformation": True, "versionSupport": True,
                               "codeDescriptionSupport": True},
        "codeAction": {"codeActionLiteralSupport": {"codeActionKind": {
            "valueSet": ["quickfix", "source", "source.fixAll"]}}, "isPreferredSupport": True},
        "hover": {"contentFormat": ["markdown", "plaintext"]},
    },
    "workspace": {
        "workspaceEdit": {"documentChanges": True},
        "didChangeWatchedFiles": {"dynamicRegistration": True},
        "workspaceFolders": True,
    },
    "notebookDocument": {"synchronization": {"dynamicRegistration": False}},
    "window": {"workDoneProgress": False},
}


class ServerError(Exception):
    pass


class Client:
    def __init__(self, argv: Sequence[str], cwd: Optional[Path] = None,
                 env: Optional[dict] = None) -> None:
        self.process = subprocess.Popen(
            list(argv), stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            cwd=cwd, env=env,
        )
        self.next_id = 0
        self.responses: dict[int, dict] = {}
        self.notifications: list[dict] = []
        self.server_requests: list[dict] = []
        self.stderr: list[str] = []
        self.changed = threading.Condition()
        self.write_lock = threading.Lock()
        threading.Thread(target=self._read, daemon=True).start()
        threading.Thread(target=self._drain_stderr, daemon=True).start()

    # -- JSON-RPC ----------------------------------------------------------------------------

    def _send(self, message: dict) -> None:
        body = json.dumps({"jsonrpc": "2.0", **message}).encode("utf-8")
        with self.write_lock:
            self.process.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
            self.process.stdin.flush()

    def _read(self) -> None:
        stream = self.process.stdout
        while True:
            length = None
            while True:
                header = stream.readline()
                if not header:
                    return self._closed()
                if header in (b"\r\n", b"\n"):
                    break
                name, _, value = header.decode("ascii").partition(":")
                if name.strip().lower() == "content-length":
                    length = int(value)
            message = json.loads(stream.read(length))
            if "method" in message and "id" in message:
                self._answer(message)
            with self.changed:
                if "method" not in message:
                    self.responses[message["id"]] = message
                elif "id" not in message:
                    self.notifications.append(message)
                self.changed.notify_all()

    def _closed(self) -> None:
        with self.changed:
            self.changed.notify_all()

    def _answer(self, request: dict) -> None:
        """Server-to-client requests (registering a file watcher) get an empty success."""
        self.server_requests.append(request)
        try:
            self._send({"id": request["id"], "result": None})
        except (OSError, ValueError):  # the pipe is closed: the answer has no one to go to
            pass

    def _drain_stderr(self) -> None:
        for line in self.process.stderr:
            self.stderr.append(line.decode("utf-8", "replace"))

    def request(self, method: str, params: Any = None, timeout: float = TIMEOUT_S) -> Any:
        self.next_id += 1
        number = self.next_id
        self._send({"id": number, "method": method, "params": params})
        response = self._wait(lambda: self.responses.pop(number, None), timeout, method)
        if "error" in response:
            raise ServerError(f"{method}: {response['error']}")
        return response.get("result")

    def notify(self, method: str, params: Any = None) -> None:
        self._send({"method": method, "params": params})

    def notification(self, method: str, match: Callable[[dict], bool] = lambda params: True,
                     timeout: float = TIMEOUT_S) -> dict:
        """The params of the first notification `method` not taken yet that `match` accepts."""
        def take():
            for index, message in enumerate(self.notifications):
                if message["method"] == method and match(message.get("params")):
                    return self.notifications.pop(index)["params"]
            return None

        return self._wait(take, timeout, method)

    def _wait(self, take: Callable[[], Any], timeout: float, what: str) -> Any:
        deadline = time.monotonic() + timeout
        with self.changed:
            while True:
                found = take()
                if found is not None:
                    return found
                left = deadline - time.monotonic()
                if left <= 0 or self.process.poll() is not None:
                    raise ServerError(f"no {what} from the server (exit status "
                                      f"{self.process.poll()}); its stderr:\n"
                                      + "".join(self.stderr))
                self.changed.wait(min(left, 0.5))

    # -- LSP ---------------------------------------------------------------------------------

    def initialize(self, root: Path, capabilities: Optional[dict] = None,
                   folders: Optional[Sequence[Path]] = None) -> dict:
        folders = list(folders) if folders is not None else [root]
        result = self.request("initialize", {
            "processId": os.getpid(), "rootUri": root.as_uri(),
            "capabilities": CAPABILITIES if capabilities is None else capabilities,
            "workspaceFolders": [{"uri": f.as_uri(), "name": f.name} for f in folders],
        })
        self.notify("initialized", {})
        return result

    def open(self, uri: str, text: str, version: int = 1, language: str = "python") -> None:
        self.notify("textDocument/didOpen", {"textDocument": {
            "uri": uri, "languageId": language, "version": version, "text": text}})

    def change(self, uri: str, version: int, text: str, edit: Optional[dict] = None) -> None:
        """The whole new text, or one ranged `edit` ({"range": ..., "text": ...})."""
        self.notify("textDocument/didChange", {
            "textDocument": {"uri": uri, "version": version},
            "contentChanges": [edit if edit is not None else {"text": text}]})

    def diagnostics(self, uri: str, version: Optional[int] = None,
                    timeout: float = TIMEOUT_S) -> list[dict]:
        """The next diagnostics published for `uri` (for `version`, when given)."""
        params = self.notification(
            "textDocument/publishDiagnostics",
            lambda p: p["uri"] == uri and (version is None or p.get("version") == version),
            timeout)
        return params["diagnostics"]

    def shutdown(self, timeout: float = TIMEOUT_S) -> int:
        """`shutdown` then `exit`, as the protocol asks; the server's exit status."""
        self.request("shutdown", None, timeout)
        return self.exit(timeout)

    def exit(self, timeout: float = TIMEOUT_S) -> int:
        self.notify("exit")
        try:
            return self.process.wait(timeout)
        finally:
            self.close()

    def close(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()
        for stream in (self.process.stdin, self.process.stdout, self.process.stderr):
            try:
                stream.close()
            except OSError:
                pass


def server_command() -> list[str]:
    """`devlint server` from this interpreter, whether or not its script is on PATH."""
    return [sys.executable, "-m", "devlint", "server"]


# -- applying what the server sends, as the editor would ---------------------------------------

def _offset(text: str, position: dict) -> int:
    """A UTF-16 position into an offset, with LSP's line breaks."""
    starts = [0] + [m.end() for m in re.finditer(r"\r\n|\r|\n", text)]
    if position["line"] >= len(starts):
        return len(text)
    start = starts[position["line"]]
    units, index = 0, start
    while index < len(text) and text[index] not in "\r\n" and units < position["character"]:
        units += 2 if ord(text[index]) > 0xFFFF else 1
        index += 1
    return index


def apply_text_edits(text: str, edits: Sequence[dict]) -> str:
    """LSP's rule: all ranges refer to the original text; edits at one position apply in order."""
    spans = [(_offset(text, e["range"]["start"]), _offset(text, e["range"]["end"]), i, e["newText"])
             for i, e in enumerate(edits)]
    for start, end, _, new in sorted(spans, key=lambda s: (s[0], s[1], s[2]), reverse=True):
        text = text[:start] + new + text[end:]
    return text


def edits_for(workspace_edit: dict, uri: str) -> list[dict]:
    """The text edits a workspace edit makes to `uri`, in either of its two shapes."""
    if "documentChanges" in workspace_edit:
        return [edit for change in workspace_edit["documentChanges"]
                if change["textDocument"]["uri"] == uri for edit in change["edits"]]
    return list(workspace_edit.get("changes", {}).get(uri, []))
