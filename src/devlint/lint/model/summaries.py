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
from dataclasses import dataclass
from typing import Optional

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


class Summaries:
    def __init__(self) -> None:
        self._cache: "OrderedDict[str, Summary]" = OrderedDict()
        self._building: set[str] = set()

    def get(self, path: str) -> Optional[Summary]:
        from devlint.workspace.project import readable_source

        data = readable_source(path)
        if data is None:
            return None
        digest = blake2b(data, digest_size=16).hexdigest()
        known = self._cache.get(path)
        if known is not None and known.digest == digest:
            self._cache.move_to_end(path)
            return known
        if path in self._building:
            return None  # an import cycle: the module importing us back sees unknown names
        self._building.add(path)
        try:
            summary = self._build(path, data, digest)
        finally:
            self._building.discard(path)
        if summary is not None:
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
        dependencies = ((path, digest),) + tuple(sorted(interpreter.dependencies))
        return Summary(path, digest, interpreter.module_env, dependencies)


SUMMARIES = Summaries()  # one per process: workers fork with what the parent had
