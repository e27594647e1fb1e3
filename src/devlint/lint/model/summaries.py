"""Module summaries: what the module-level names of a project's files hold once the module's
code has run (functions and classes with their code, devices, flags such as
`_SUPPORTS_FLEX_ATTENTION`, models, loaders).

An import that resolves to a project file (see `workspace.project`) binds the summary's value
instead of an unknown name, so a guard, a helper or a model defined in another file is known
where it is used. A function from another file runs, when called, on the importer's values;
what it observes inside its own file is that file's business (reported when that file is
checked), so the importer keeps only what happens at its own lines.

Summaries are computed once per file and process, keyed by the file's bytes; an import cycle
gives the module being summarised no summary (its importers see unknown names), and a file
that does not parse, or is too large, gives none either.
"""
from __future__ import annotations

from collections import OrderedDict
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Iterator, Optional

try:
    from _blake2 import blake2b
except ImportError:  # pragma: no cover - another interpreter
    from hashlib import blake2b

MAX_SUMMARIES = 256  # per process: the trees behind them are what costs memory


@dataclass
class Summary:
    path: str
    digest: str
    env: dict  # name -> Value, as the module's code left it
    dependencies: tuple  # (path, digest) of every project file it was built from, itself first
    probes: tuple = ()  # how the imports behind it resolved (see `Interpreter.probes`)


@dataclass
class Dependencies:
    """What one file's analysis stood on: the project files it read summaries of, by digest
    (None: unreadable or unparsable), and how each import resolved. A cached result is good
    while all of them still hold (`workspace.project.still_holds`)."""

    files: set = field(default_factory=set)
    probes: set = field(default_factory=set)


_RECORDING: ContextVar = ContextVar("devlint_dependencies", default=None)


@contextmanager
def recording() -> Iterator[Dependencies]:
    found = Dependencies()
    token = _RECORDING.set(found)
    try:
        yield found
    finally:
        _RECORDING.reset(token)


def record(interpreter) -> None:
    found = _RECORDING.get()
    if found is not None:
        found.files.update(interpreter.dependencies)
        found.probes.update(interpreter.probes)


class Summaries:
    """A summary made without a cycle cut inside it is the same whoever asks: it is kept for
    the process. One whose build met a module of the cycle half-done depends on where the cycle
    was entered: it is kept only for the file being analysed (`begin_file`), so that a file's
    findings never depend on which files were checked before it in the same process."""

    def __init__(self) -> None:
        self._cache: "OrderedDict[str, Summary]" = OrderedDict()
        self._local: dict[str, Summary] = {}
        self._building: list[str] = []
        self._cut: set[str] = set()  # summaries being built that met a cycle
        self.digests: dict[str, Optional[str]] = {}

    def begin_file(self) -> None:
        self._local.clear()

    def get(self, path: str) -> Optional[Summary]:
        from devlint.workspace.project import readable_source

        data = readable_source(path)
        if data is None:
            self.digests[path] = None
            return None
        digest = blake2b(data, digest_size=16).hexdigest()
        self.digests[path] = digest
        known = self._cache.get(path)
        if known is not None and known.digest == digest:
            self._cache.move_to_end(path)
            return known
        local = self._local.get(path)
        if local is not None and local.digest == digest:
            self._cut.update(self._building)
            return local
        if path in self._building:
            self._cut.update(self._building)  # an import cycle: the importer sees unknown names
            return None
        self._building.append(path)
        try:
            summary = self._build(path, data, digest)
        finally:
            self._building.pop()
            cut = path in self._cut
            self._cut.discard(path)
        if summary is not None:
            if cut:
                self._local[path] = summary
            else:
                self._cache[path] = summary
                while len(self._cache) > MAX_SUMMARIES:
                    self._cache.popitem(last=False)
        return summary

    def _build(self, path: str, data: bytes, digest: str) -> Optional[Summary]:
        from devlint.lint.model.interpret import Interpreter
        from devlint.lint.parse import SourceError, check_syntax, decode_source, parse_module

        try:
            text = decode_source(data)
            check_syntax(text)
            module = parse_module(text)
        except (SourceError, RecursionError, MemoryError):
            return None
        interpreter = Interpreter(module, path=path, summaries=self, summarising=True)
        try:
            interpreter.run()
        except RecursionError:
            return None
        dependencies = ((path, digest),) + tuple(sorted(interpreter.dependencies, key=repr))
        return Summary(path, digest, interpreter.module_env, dependencies,
                       tuple(sorted(interpreter.probes, key=repr)))


SUMMARIES = Summaries()  # one per process: workers fork with what the parent had
