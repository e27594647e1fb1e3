"""Analyze one file: parse once, interpret it once (the model of where every value lives), run
the selected rules over its observations, drop what `noqa` silences.

A file's result is a pure function of its bytes and the selected codes, so files can be
checked in any order or in parallel.
"""
from __future__ import annotations

import ast
import os
import re
from dataclasses import dataclass
from typing import Any, Callable, Iterable, Iterator, Optional

import libcst as cst

from devlint.lint.model import analyze
from devlint.lint.model.summaries import summaries_for
from devlint.lint.fix_gate import refusal
from devlint.core import limits
from devlint.core.collector import paced_collector
from devlint.core.limits import (
    CANNOT_ANALYSE_CODE, MAX_SOURCE_CHARS, OutOfTime, Unanalysable, check_size, cpu_budget,
    deep_recursion, memory_budget, screen,
)
from devlint.core.lines import NEWLINE, line_starts, silences, split_lines
from devlint.core.findings import Edit, Finding, Fix, Location, RawFinding, Related, TextEdit
from devlint.core.source_text import SourceError, decode_source
from devlint.lint.parse import PieceParser, check_syntax, newer_grammar, parse_module, parse_newer
from devlint.lint.positions import Span, spans_of
from devlint.lint.prefilter import could_match
from devlint.lint.syntax import forget_walks, walk
from devlint.lint.rules import ALL_RULES, PARSE_ERROR_CODE, Rule
from devlint.core.selection import Selection
from devlint.workspace.project import PROJECT_FILES

FILE_CODES = (PARSE_ERROR_CODE, CANNOT_ANALYSE_CODE)  # about the file, not its code

# A whole file, on a comment line of its own (ruff's `# ruff: noqa` in devlint's name):
# `# devlint: noqa` silences every code, `# devlint: noqa: DEV001,DEV002` those codes.
FILE_NOQA = re.compile(
    r"^[ \t]*#[ \t]*devlint[ \t]*:[ \t]*noqa"
    r"(?:[ \t]*:[ \t]*(?P<codes>[A-Z]+[0-9]*(?:[ \t]*,?[ \t]*[A-Z]+[0-9]*)*))?[ \t]*$",
    re.I | re.M,
)
# flake8's own file-level form, honoured as flake8 honours it: only bare (flake8 ignores a
# `# flake8: noqa: CODES` line, with a warning), so it silences every code of the file.
FLAKE8_FILE_NOQA = re.compile(r"^[ \t]*#[ \t]*flake8[ \t]*[:=][ \t]*noqa[ \t]*$", re.I | re.M)


def analyze_source(text: str, path: str, selection: Selection = Selection(),
                   describe_line: Callable[[int], str] = str,
                   keep_foreign: bool = False, pieces: Optional[PieceParser] = None,
                   unit_of: Optional[Callable[[int], int]] = None,
                   gate_fixes: bool = True) -> list[Finding]:
    """All findings of one file's text; a parse error becomes a DEV999 finding, a file devlint
    cannot analyse a DEV998 one. `describe_line` words a line number inside messages ("3 of
    cell 2" in a notebook). `keep_foreign`: also the findings in other files' code that this
    file's run reached (their `path` is that file's, `reached` the call here). `pieces`: the
    parser of an earlier version of this text, to re-parse only the statements that changed.
    `unit_of`: the unit a line runs in (a notebook's cell), where that is not the whole text.
    `gate_fixes=False`: fixes are not put through the fix gate (`fix_gate.refusal`, most of an
    analysis of a file with many findings); the caller gates each before it offers it (the
    language server, when the editor asks for code actions)."""
    rules = [rule() for rule in ALL_RULES if selection.enabled(rule.code)]
    codes = [rule.code for rule in rules]
    try:
        with cpu_budget(), memory_budget(), paced_collector():
            findings = _analyze(text, path, rules, codes, describe_line, selection.project, pieces,
                                unit_of, gate_fixes)
    except SourceError as exc:
        findings = [parse_error(path, exc)]
    except Unanalysable as exc:
        findings = [cannot_analyse(path, exc)]
    except RecursionError:
        findings = [cannot_analyse(path, Unanalysable(1, 1, "it nests too deep for devlint"))]
    except MemoryError:
        findings = [cannot_analyse(path, Unanalysable(1, 1, "devlint ran out of memory on it"))]
    except OutOfTime:
        findings = [cannot_analyse(path, Unanalysable(
            1, 1, f"its analysis took over {limits.FILE_CPU_SECONDS} s of CPU and was stopped"))]
    findings = [f for f in findings if f.code not in FILE_CODES or selection.enabled(f.code)]
    own = [f for f in findings if f.path == path]
    # Another file's findings (its own comments silenced them already) go only to a caller
    # that routes them to that file (`lint.runner`); every other caller gets this file's.
    elsewhere = [f for f in findings if f.path != path] if keep_foreign else []
    return sorted(apply_file_noqa(apply_noqa(own, text), text) + elsewhere, key=Finding.sort_key)


def _analyze(text: str, path: str, rules: list[Rule], codes: list[str],
             describe_line: Callable[[int], str], project: bool = True,
             pieces: Optional[PieceParser] = None,
             unit_of: Optional[Callable[[int], int]] = None,
             gate_fixes: bool = True) -> list[Finding]:
    if len(text) > MAX_SOURCE_CHARS and not could_match(text, codes):
        return []  # nothing a rule looks for is in it: not worth gigabytes of parsing
    check_size(text)
    # CPython's parser first, for every file: 10x cheaper than libcst's, it reports syntax
    # errors as Python would, and its tree tells what would crash or stall libcst's parser.
    newer: Optional[cst.Module] = None
    try:
        tree: Optional[ast.Module] = check_syntax(text)
    except SourceError as exc:
        if not newer_grammar(text, exc):
            raise
        newer = parse_newer(text, exc)  # Python 3.12 syntax under an older Python
        tree = None
    if not could_match(text, codes) and not (
            project and pieces is None and tree is not None and _hands_values_to(tree, path, codes)):
        return []
    if tree is not None:
        screen(tree, text)
    forget_walks()  # the last file's trees (`syntax.walk`)
    if pieces is None:
        del tree  # before libcst's tree, the larger one, is built
    trees = summaries_for(PROJECT_FILES) if project and newer is None and pieces is None else None
    if trees is not None:
        trees.checking(path)
    with deep_recursion():
        shared = trees.tree(text) if trees is not None else None
        if newer is not None:
            module = newer
        elif shared is not None:
            module = shared
        else:
            module = parse_module(text) if pieces is None else pieces.parse(text, tree)
        raws, elsewhere, model = run_rules(module, rules, text, path, project, unit_of)
        if shared is not None and model is not None and _stood_on_itself(model):
            module = parse_module(text)  # its summary's nodes are its own: a tree of its own
            raws, elsewhere, model = run_rules(module, rules, text, path, project, unit_of)
        elif trees is not None and shared is None:
            trees.keep_tree(text, module)
        del model
        if not raws:
            return []
        return resolve_positions(module, raws, path, text, describe_line, elsewhere, gate_fixes)


MAX_IMPORTS_READ = 32  # project modules an otherwise silent file's imports are looked up for


def _hands_values_to(tree: ast.Module, path: str, codes: list[str]) -> bool:
    """In project mode, whether a file that names nothing a rule looks for calls the code of a
    module of its project that does (`score.py` with only `from scoring.engine import run`,
    then `run(model, batch, cfg, device)`): its run hands that code the values it builds, and
    what those meet there is a finding of that module, reached from here. Only a file that
    runs as a script (`_runs_as_a_script`) and calls what it imports: a package's
    `__init__.py` re-exporting its modules calls nothing."""
    if not os.path.isfile(path) or not _runs_as_a_script(tree):
        return False
    called = {_root_name(node.func) for node in ast.walk(tree) if type(node) is ast.Call}
    called.discard(None)
    if not called:
        return False
    looked = 0
    for node in ast.walk(tree):
        if type(node) is ast.Import:
            # `import pkg.engine as engine`, `import pkg.engine`: the name bound, the module
            names = [(alias.asname or alias.name.split(".")[0], alias.name, 0) for alias in node.names]
        elif type(node) is ast.ImportFrom:
            base = node.module or ""
            names = [(alias.asname or alias.name, f"{base}.{alias.name}" if base else alias.name,
                      node.level) for alias in node.names if alias.name != "*"]
            names += [(alias.asname or alias.name, base, node.level) for alias in node.names
                      if alias.name != "*" and (base or node.level)]
        else:
            continue
        for bound, module, level in names:
            if bound not in called:
                continue
            if looked >= MAX_IMPORTS_READ:
                return False
            looked += 1
            target = PROJECT_FILES.resolve(path, module, level)
            if target is None or not target.endswith(".py"):
                continue
            data = PROJECT_FILES.read(target)
            if data is not None and could_match(data.decode("utf-8", "replace"), codes):
                return True
    return False


def _runs_as_a_script(tree: ast.Module) -> bool:
    """A file something runs, not only imports: an `if __name__ == "__main__":` block, or a
    call at its top level (a script's `main()`, a notebook's cells). A library module's
    functions get no values of their own to hand on."""
    for statement in tree.body:
        if type(statement) is ast.Expr and type(statement.value) is ast.Call:
            return True
        if type(statement) is ast.If and type(statement.test) is ast.Compare and \
                type(statement.test.left) is ast.Name and statement.test.left.id == "__name__":
            return True
    return False


def _root_name(node: ast.AST) -> Optional[str]:
    """`run` of `run(...)`, `engine` of `engine.run(...)` and of `engine.Runner().fit(...)`."""
    while type(node) in (ast.Attribute, ast.Call, ast.Subscript):
        node = node.value if type(node) is not ast.Call else node.func
    return node.id if type(node) is ast.Name else None


def _stood_on_itself(model) -> bool:
    """Whether a file's run read a summary built from the file itself (an import cycle)."""
    interpreter = model.interpreter
    if not interpreter.path:
        return False
    own = os.path.abspath(interpreter.path)
    return any(os.path.abspath(path) == own for path, _ in interpreter.dependencies)


def analyze_bytes(data: bytes, path: str, selection: Selection = Selection(),
                  keep_foreign: bool = False) -> list[Finding]:
    try:
        text = decode_source(data)
    except SourceError as exc:
        if not selection.enabled(PARSE_ERROR_CODE):
            return []
        return [parse_error(path, exc)]
    return analyze_source(text, path, selection, keep_foreign=keep_foreign)


def parse_error(path: str, exc: SourceError) -> Finding:
    return Finding(path, exc.line, exc.column, PARSE_ERROR_CODE, f"cannot parse: {exc.reason}")


def cannot_analyse(path: str, exc: Unanalysable) -> Finding:
    return Finding(path, exc.line, exc.column, CANNOT_ANALYSE_CODE,
                   f"devlint cannot analyse this file: {exc.reason}")


@dataclass
class Elsewhere:
    """The other files whose code this file's run executed (their interpreters: a tree and a
    path each), and for each node seen there the call at this file's own line that reached it."""

    owners: list
    reached: dict  # id(node) -> this file's call node


def run_rules(module: cst.Module, rules: list[Rule], text: str = "", path: str = "",
              project: bool = False, unit_of: Optional[Callable[[int], int]] = None
              ) -> tuple[list[RawFinding], Optional[Elsewhere], Any]:
    """The rules' raw findings of one tree, the other files' code its run executed, and the
    model they were read from (None without rules)."""
    if not rules:
        return [], None, None
    walk(module)  # record the whole tree's walk once: the model's walks of its parts are slices
    model = analyze(module, text, path, PROJECT_FILES if project else None, unit_of)
    raws = [raw for rule in rules for raw in rule.check(model)]
    owners = list(model.interpreter.foreign_owners.values())
    return raws, Elsewhere(owners, model.interpreter.reached) if owners else None, model


def resolve_positions(
    module: cst.Module, raws: Iterable[RawFinding], path: str, text: str,
    describe_line: Callable[[int], str] = str, elsewhere: Optional[Elsewhere] = None,
    gate_fixes: bool = True,
) -> list[Finding]:
    """Positions are computed only for files that have findings (most have none). A finding
    whose node lies in another file's code becomes that file's (see `_foreign_findings`)."""
    raws = list(raws)
    positions = spans_of(module, _anchors(raws))
    own = [raw for raw in raws if raw.node in positions]
    foreign = [raw for raw in raws if raw.node not in positions]
    trees = _Trees(module, path, positions, elsewhere, foreign + own)
    lines = LineIndex(text)
    findings = []
    for raw in own:
        start = positions[raw.node].start
        related, message = None, raw.message
        if raw.related_node is not None:
            related_node = raw.related_node
            if related_node in positions:
                rstart = positions[related_node].start
                message = message.replace("{related_line}", describe_line(rstart.line))
            else:  # inside another file's code: the message says where, `related` is the call here
                message = message.replace("{related_line}", trees.words(related_node, path))
                related_node = trees.reached(related_node)
                rstart = trees.here()[related_node].start if related_node is not None else None
            if rstart is not None:
                related = Related(Location(rstart.line, rstart.column + 1), raw.related_label)
        fix = None
        if raw.fix is not None and all(
                edit.node in positions and (edit.end_node is None or edit.end_node in positions)
                for edit in raw.fix.edits):  # an edit anchored in another file is never offered
            edits = tuple(lines.resolve(edit, positions) for edit in raw.fix.edits)
            # The one gate of every fix: a finding whose fix fails it stays, unfixable (a
            # caller that asked for ungated fixes gates each before it offers it).
            if not gate_fixes or refusal(text, edits) is None:
                fix = Fix(raw.fix.description, raw.fix.applicability, edits)
        findings.append(Finding(path, start.line, start.column + 1, raw.code, message, related, fix,
                                root_cause=raw.root_cause))
    return _one_per_place(findings + _foreign_findings(foreign, trees))


def _one_per_place(findings: list[Finding]) -> list[Finding]:
    """One root cause, one finding: never two at the same file, line, column and code (two
    nodes can start at one place, `torch.device("cuda")` and its literal; the first, which the
    rules' order makes the more specific, is kept)."""
    seen: set = set()
    kept = []
    for finding in findings:
        key = (finding.path, finding.line, finding.column, finding.code)
        if key not in seen:
            seen.add(key)
            kept.append(finding)
    return kept


class _Trees:
    """Positions in the checked file and in the other files its run executed, computed only for
    the trees that hold a finding's nodes."""

    def __init__(self, module: cst.Module, path: str, positions: dict,
                 elsewhere: Optional[Elsewhere], raws: list[RawFinding]) -> None:
        self.path = path
        self.elsewhere = elsewhere
        self.places: list[tuple[str, Any, dict]] = [(path, module, positions)]
        self._here: Optional[dict] = None
        if elsewhere is None:
            return
        wanted = [node for node in _anchors(raws) if node not in positions]
        for owner in elsewhere.owners:
            if not wanted:
                break
            found = spans_of(owner.module, wanted)
            if found:
                self.places.append((owner.path, owner.module, found))
                wanted = [node for node in wanted if node not in found]

    def here(self) -> dict:
        """This file's positions, with the calls that reached other files' code (one more pass
        over this file, only when a finding needs one of them)."""
        if self._here is None:
            path, module, positions = self.places[0]
            calls = {id(c): c for c in self.elsewhere.reached.values()} if self.elsewhere else {}
            self._here = {**positions, **spans_of(module, calls.values())} if calls else positions
            self.places[0] = (path, module, self._here)
        return self._here

    def place(self, node) -> Optional[tuple[str, Any, Span]]:
        for path, module, positions in self.places:
            if node in positions:
                return path, module, positions[node]
        return None

    def reached(self, node) -> Any:
        """This file's call that ran the other file's `node`, when known."""
        if self.elsewhere is None:
            return None
        call = self.elsewhere.reached.get(id(node))
        return call if call is not None and call in self.here() else None

    def words(self, node, finding_path: str) -> str:
        """A line as a message says it: "12", or "12 of model.py" in another file."""
        where = self.place(node)
        if where is None:
            return "?"
        path, _, span = where
        line = str(span.start.line)
        return line if os.path.abspath(path) == os.path.abspath(finding_path) else \
            f"{line} of {os.path.basename(path)}"


def _foreign_findings(raws: list[RawFinding], trees: _Trees) -> list[Finding]:
    """Findings in another file's code, with that file's path and positions, the call here that
    ran it as `reached`, no fix (the fix would edit a file this run only read), and that file's
    own `# noqa` comments applied."""
    by_file: dict[str, list[Finding]] = {}
    modules: dict[str, Any] = {}
    for raw in raws:
        where = trees.place(raw.node)
        if where is None:
            continue  # a node no tree of this run holds: nothing to point at
        target, module, span = where
        related = None
        message = raw.message
        if raw.related_node is not None:
            placed = trees.place(raw.related_node)
            if placed is not None:
                rpath, _, rspan = placed
                related = Related(Location(rspan.start.line, rspan.start.column + 1),
                                  raw.related_label, path=None if rpath == target else rpath)
            message = message.replace("{related_line}", trees.words(raw.related_node, target))
        reached = None
        call = trees.reached(raw.node) or (
            trees.reached(raw.related_node) if raw.related_node is not None else None)
        if call is not None and (related is None or related.path != trees.path):
            rspan = trees.here()[call]
            reached = Related(Location(rspan.start.line, rspan.start.column + 1),
                              "reached from here", path=trees.path)
        # (a cause the code base shares, as when its own run reports it: ReCoNet's
        # `dataset.py`, reached from a scratch script, is the same missing choice as the rest)
        by_file.setdefault(target, []).append(Finding(
            target, span.start.line, span.start.column + 1, raw.code, message, related,
            reached=reached, root_cause=raw.root_cause))
        modules[target] = module
    findings = []
    for target, found in by_file.items():
        text = modules[target].code
        findings += apply_file_noqa(apply_noqa(found, text), text)
    return findings


def _anchors(raws: list[RawFinding]) -> Iterator[cst.CSTNode]:
    for raw in raws:
        yield raw.node
        if raw.related_node is not None:
            yield raw.related_node
        for edit in raw.fix.edits if raw.fix is not None else ():
            yield edit.node
            if edit.end_node is not None:
                yield edit.end_node


class LineIndex:
    """Offsets of line starts, splitting lines exactly where Python and libcst do."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.starts = line_starts(text)
        match = NEWLINE.search(text)
        self.newline = match.group() if match else "\n"

    def offset(self, line: int, column: int) -> int:
        return self.starts[line - 1] + column if line <= len(self.starts) else len(self.text)

    def line_start(self, line: int) -> int:
        return self.starts[line - 1] if line <= len(self.starts) else len(self.text)

    def indent_of(self, line: int) -> str:
        """The line's own indentation, tabs included: an inserted line must match it."""
        start = self.line_start(line)
        return re.match(r"[ \t]*", self.text[start:start + 200]).group()

    def resolve(self, edit: Edit, positions) -> TextEdit:
        where = positions[edit.node]
        end = positions[edit.end_node or edit.node].end
        if edit.action == "replace":
            return TextEdit(
                self.offset(where.start.line, where.start.column),
                self.offset(end.line, end.column),
                edit.text,
            )
        if edit.action == "insert_before":
            at = self.line_start(where.start.line)
            return TextEdit(at, at, self.indent_of(where.start.line) + edit.text + self.newline)
        if edit.action == "insert_after":
            at = self.line_start(end.line + 1)
            unterminated = at == len(self.text) and not self.text.endswith(("\n", "\r"))
            prefix = self.newline if unterminated else ""
            indent = self.indent_of(where.start.line)
            return TextEdit(at, at, prefix + indent + edit.text + self.newline)
        if edit.action == "delete":
            return TextEdit(self.line_start(where.start.line), self.line_start(end.line + 1), "")
        raise ValueError(f"unknown edit action {edit.action!r}")


def apply_noqa(findings: list[Finding], text: str) -> list[Finding]:
    """Drop what a line's `# noqa` silences. Never DEV998 or DEV999: they say the file was not
    checked at all, which a comment on one line (`x = = 1  # noqa`) must not hide; `ignore`
    and `per-file-ignores` turn them off."""
    if not findings or "noqa" not in text.lower():
        return findings
    lines = split_lines(text)  # not str.splitlines: a form feed must not shift the lines
    kept = []
    for finding in findings:
        line = lines[finding.line - 1] if 0 < finding.line <= len(lines) else ""
        if finding.code in FILE_CODES or not silences(line, finding.code):
            kept.append(finding)
    return kept


def apply_file_noqa(findings: list[Finding], text: str) -> list[Finding]:
    """`# devlint: noqa[: CODES]` on a line of its own anywhere in the file (in a notebook,
    in any cell) silences those codes in the whole file; so does flake8's `# flake8: noqa`."""
    lowered = text.lower() if findings else ""
    if "flake8" in lowered and FLAKE8_FILE_NOQA.search(text):
        return []
    if "devlint" not in lowered:
        return findings
    silenced: list[str] = []
    for match in FILE_NOQA.finditer(text):
        codes = match.group("codes")
        if not codes:
            return []
        silenced += [c.upper() for c in re.split(r"[,\s]+", codes) if c]
    return [f for f in findings if not any(f.code.startswith(c) for c in silenced)]
