"""The folders a file puts on `sys.path` itself, before it imports from them.

Research scripts reach a folder of modules by editing the path: `sys.path.insert(0,
os.path.join(os.path.dirname(os.path.abspath(__file__)), 'student_model'))`, then `from
blazehand_landmark import BlazeHandLandmark`. An import resolves through those folders as
CPython's would, so devlint reads the class instead of guessing about an unknown one.

Only what can be computed from the file's own text is followed: string literals, `__file__`,
`os.path.join`/`dirname`/`abspath`/`realpath`/`normpath`/`expanduser`, `pathlib.Path(...)`,
`.parent`, `.parents[n]`, `.resolve()`, `/` and `str(...)`, and a module-level name bound once
to such an expression (`BASE_DIR = os.path.dirname(os.path.abspath(__file__))`). A relative string is taken from the
file's folder and from the project root (where scripts are usually started). Only folders
inside the project that exist are kept.

`known_folders` says whether those edits are all there is: every mention of `sys.path` an
insert or append of a folder computed from `__file__` (absolute, inside the project), or the
list an `in` test reads. Then where an import of the file finds its module is certain.
"""
from __future__ import annotations

import ast
import os
import re
from typing import Optional

from devlint.workspace.project import readable_source

_EDITS: dict = {}  # (path, size, mtime) -> (inserted, appended, whether every edit is known)
_SYS_ALIASED = re.compile(rb"import\s+sys\s+as\b|from\s+sys\s+import\b")
_PATH_CALLS = frozenset({"join", "dirname", "abspath", "realpath", "normpath", "expanduser"})


def path_edits(importer: str, root: str) -> tuple:
    """(folders inserted at the front, folders appended) by the file `importer`'s own
    `sys.path` edits, inside the project at `root`."""
    return _edits(importer, root)[:2]


def known_folders(importer: str, root: str) -> Optional[tuple]:
    """Every folder the file `importer` puts on `sys.path` itself, when each of its edits is
    known (see the module's docstring); None where one is not (a folder from an argument, a
    relative string the working folder decides, `sys.path = ...`, an alias of `sys`)."""
    inserted, appended, complete = _edits(importer, root)
    return inserted + appended if complete else None


def _edits(importer: str, root: str) -> tuple:
    try:
        stat = os.stat(importer)
    except OSError:
        return (), (), False
    key = (importer, stat.st_size, stat.st_mtime_ns, root)
    known = _EDITS.get(key)
    if known is None:
        known = _EDITS[key] = _read(importer, root)
    return known


def _read(importer: str, root: str) -> tuple:
    data = readable_source(importer)
    if data is None:
        return (), (), False
    if b"sys.path" not in data and not _SYS_ALIASED.search(data):
        return (), (), True
    try:
        tree = ast.parse(data)
    except (SyntaxError, ValueError, MemoryError, RecursionError):
        return (), (), False
    here = os.path.dirname(os.path.abspath(importer))
    inserted: list = []
    appended: list = []
    # `BASE_DIR = os.path.dirname(os.path.abspath(__file__))` at module level, then
    # `sys.path.append(os.path.join(BASE_DIR, '../../models'))`: a name bound once to a path
    names: dict = {}
    for statement in tree.body:
        if isinstance(statement, ast.Assign) and len(statement.targets) == 1 and \
                isinstance(statement.targets[0], ast.Name):
            key = statement.targets[0].id
            names[key] = None if key in names else statement.value  # bound twice: unknown
    mentions = 0  # of `sys.path`
    understood = 0  # of those: a known edit, or the list an `in` test reads
    for node in ast.walk(tree):
        if _is_sys_path(node):
            mentions += 1
        elif isinstance(node, (ast.Import, ast.ImportFrom)) and \
                any(alias.name == "sys" and alias.asname or
                    getattr(node, "module", None) == "sys" for alias in node.names):
            mentions += 1  # `import sys as s`, `from sys import path`: edits not followed
        if isinstance(node, ast.Compare) and all(isinstance(op, (ast.In, ast.NotIn)) for op in node.ops):
            understood += sum(1 for right in node.comparators if _is_sys_path(right))
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                and node.func.attr in ("insert", "append") and _is_sys_path(node.func.value)):
            continue
        args = node.args[1:] if node.func.attr == "insert" else node.args
        if len(args) != 1 or node.keywords:
            continue
        value = _value(args[0], os.path.abspath(importer), names)
        if value is None:
            continue
        if os.path.isabs(value) and _inside(os.path.normpath(value), root):
            understood += 1  # (a folder that does not exist holds no module either)
        bases = [value] if os.path.isabs(value) else [os.path.join(here, value),
                                                       os.path.join(root, value)]
        for base in bases:
            folder = os.path.normpath(base)
            if _inside(folder, root) and os.path.isdir(folder):
                target = inserted if node.func.attr == "insert" else appended
                if folder not in target:
                    target.append(folder)
    return tuple(inserted), tuple(appended), understood == mentions


def _inside(folder: str, root: str) -> bool:
    return folder == root or folder.startswith(root.rstrip(os.sep) + os.sep)


def _is_sys_path(node: ast.AST) -> bool:
    return (isinstance(node, ast.Attribute) and node.attr == "path" and
            isinstance(node.value, ast.Name) and node.value.id == "sys")


def _value(node: ast.AST, file: str, names: Optional[dict] = None, depth: int = 0) -> Optional[str]:
    """The path an expression computes, or None where that is not known from the text.
    `names`: module-level names bound once, to the expression they hold."""
    if depth > 8:
        return None
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.Name) and node.id == "__file__":
        return file
    if isinstance(node, ast.Name):
        held = (names or {}).get(node.id)
        return _value(held, file, names, depth + 1) if held is not None else None
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Div):
        left, right = _value(node.left, file, names, depth + 1), _value(node.right, file, names, depth + 1)
        return os.path.join(left, right) if left is not None and right is not None else None
    if isinstance(node, ast.Attribute) and node.attr == "parent":
        inner = _value(node.value, file, names, depth + 1)
        return os.path.dirname(inner) if inner is not None else None
    if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Attribute) and \
            node.value.attr == "parents" and isinstance(node.slice, ast.Constant) and \
            isinstance(node.slice.value, int) and 0 <= node.slice.value < 8:
        inner = _value(node.value.value, file, names, depth + 1)
        if inner is None:
            return None
        for _ in range(node.slice.value + 1):
            inner = os.path.dirname(inner)
        return inner
    if not isinstance(node, ast.Call) or node.keywords:
        return None
    func = node.func
    name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else None
    if name in ("resolve", "absolute") and isinstance(func, ast.Attribute) and not node.args:
        return _value(func.value, file, names, depth + 1)  # normalised with every path (`_read`)
    values = [_value(arg, file, names, depth + 1) for arg in node.args]
    if not values or any(value is None for value in values):
        return None
    if name in ("Path", "str", "PurePath", "fspath") and len(values) == 1:
        return values[0]
    if name in _PATH_CALLS and isinstance(func, ast.Attribute):
        if name == "join":
            return os.path.join(*values)
        if len(values) != 1:
            return None
        if name == "dirname":
            return os.path.dirname(values[0])
        if name == "expanduser":
            return None  # a folder outside the project
        return values[0]  # abspath, realpath, normpath: `_read` normalises every path
    return None
