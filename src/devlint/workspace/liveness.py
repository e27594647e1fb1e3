"""Which of a module's top-level functions and classes no other file of its project names.

An application's code that nothing names is code no run follows: `normalize()` copied into
`utils/maskstransform.py` that no script calls, a loss class no model builds. devlint runs a
function no code of its own file calls on its own, with unknown arguments, because another
file may call it; when no other file can (none names it, in code, a string, a config or a
shell script), that run follows no path a program takes, and what it observes is no finding.

A package others install is different: its users' code, not in the project, calls its public
names. So the answer is `None` (unknown: everything may be called) for a distribution, for a
module no file imports in a project that loads modules by a computed name (as CycleGAN's
`find_model_using_name` does), for one a runner or a package import runs (`test_*.py`,
`__init__.py`), for a loose file with no project marker (`.git`, `pyproject.toml`) above it
that is no script, for one whose importers read its
namespace (`vars(modellib)`, `getattr(modellib, name)`, `modellib.__dict__`), for a project
whose files cannot all be read within the budget, and where there is no project. A module
nothing imports, a script (a `__main__` block, or its own `main()` called at module level) or
a module of a project that nothing runs, reaches the definitions its code at module level
names, through each other, and what other files name.

Every text file of the project counts as naming a word it holds (notebooks, YAML and JSON
configs a registry reads class names from, shell scripts, READMEs), and a Python file what its
code holds, strings included but not comments (`# from attack_tester import AttacksTester`,
commented out): a mention anywhere else keeps a definition live, except one only inside dead
code of a module nothing imports and nothing else runs (a trainer class no script builds).
Each file's words are read once per process and version.
"""
from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Optional

from devlint.core.names import ast_words
from devlint.workspace.project import project_of, readable_source, same_file

# A definition at column 0 of the module: what another file could import.
TOP_LEVEL = re.compile(rb"^(?:async[ \t]+def|def|class)[ \t]+([A-Za-z_][A-Za-z0-9_]*)", re.M)
WORD = re.compile(rb"[A-Za-z_][A-Za-z0-9_]*")
# The text files besides `.py` and `.ipynb` that may name a definition.
TEXT_SUFFIXES = (".yaml", ".yml", ".json", ".toml", ".cfg", ".ini", ".sh", ".bash", ".txt",
                 ".md", ".rst", ".jsonnet", ".gin", ".conf")
MAX_TEXT_FILE = 1 << 20  # larger text files are data, not configs
SCAN_BUDGET = 48 << 20
MAX_TEXT_FILES = 4000

_WORDS: dict = {}  # (path, size, mtime) -> frozenset of the file's words
_TEXTS: dict = {}  # project root -> its other text files (None past MAX_TEXT_FILES)


def unnamed_elsewhere(path: str) -> Optional[tuple]:
    """The top-level functions and classes of `path` that no other text file of its project
    names, sorted; None where that is unknown (see above)."""
    from devlint.workspace.accelerators import _distribution
    from devlint.workspace.importers import file_facts, importers_of, project_sources

    root = project_of(str(path)).root
    if _distribution(root):
        return None
    try:
        data = Path(path).read_bytes()
    except OSError:
        return None
    defined = set(_defined(data))
    if not defined:
        return ()
    sources = project_sources(root)
    texts = _text_files(root)
    importers = importers_of(path)
    if sources is None or texts is None or importers is None:
        return None
    own = same_file(str(path))
    others = [source for source in list(sources) + texts if same_file(str(source)) != own]
    if not importers and (not _script(data, defined) and not project_of(str(path)).marked or
                          _runs_on_its_own(str(path)) or _loads_by_name(sources, texts)):
        # no file imports it by name: a module found by a name computed at run time
        # (`importlib.import_module("models." + name + "_model")`), or one a runner or a
        # package import runs; or a folder of loose files with no project marker, whose
        # modules any script outside may import. In a project (a `.git`, a `pyproject.toml`),
        # a module no file imports and no code runs (a profiler nothing uses, an engine
        # superseded by another) reaches only what its own module level names, as a script
        # reaches what its `__main__` block names: `python utils.py` runs nothing else of
        # it. Its module-level constants that only those definitions read place nothing
        # (`model.liveness`).
        return None
    module = os.path.splitext(os.path.basename(str(path)))[0]
    if module == "__init__":
        module = os.path.basename(os.path.dirname(os.path.abspath(str(path))))
    for importer in sorted(importers):
        data = readable_source(str(importer))
        if data is None or _reads_namespace(data, module):
            return None  # `for name, cls in modellib.__dict__.items()`: any may be picked
    left = set(defined)
    namers: dict = {}  # a name -> the other files that name it
    for source, words in zip(others, file_facts(others, _WORDS, _words, SCAN_BUDGET)):
        if words is None:
            return None  # past the budget (or a file that cannot be read: it may name them)
        for name in left & words:
            namers.setdefault(name, []).append(source)
    # A Python file names what its code names: a comment (`# from attack_tester import
    # AttacksTester`, commented out) runs nothing.
    for name, files in list(namers.items()):
        files = [source for source in files if _names_in_code(source, name)
                 and _may_name_ours(source, name, path, importers)]
        if files:
            namers[name] = files
        else:
            del namers[name]
    left -= set(namers)
    # A name only dead code of other modules names is unnamed too: a module nothing imports
    # and nothing else runs (a GAN trainer no script imports) reaches only what its own code
    # at module level names; the names inside its other definitions name nothing that runs.
    if namers and not _loads_by_name(sources, texts):
        everything = list(sources) + texts
        for name, files in namers.items():
            if all(_only_dead_code_names(source, name, everything) for source in files):
                left.add(name)
    return tuple(sorted(left))


_BINDINGS: dict = {}  # (path, size, mtime) -> a Python file's top-level bindings and uses


def _may_name_ours(source, name: str, path, importers: frozenset) -> bool:
    """Whether a Python file's mentions of `name` can be `path`'s definition of it. One that
    defines its own `name` at its top level, or imports `name` from another project module
    that defines it (LightGCL's `old_setting/model.py`, whose `from utils import spmm` is
    `old_setting/utils.py`'s copy), names that one, whether or not it imports other names of
    `path` (SincNet's training script keeps its own `create_batches_rnd`). An importer of
    `path` that binds `name` by `from ... import name` and uses it only as an attribute of
    something else (`torch.spmm`) never calls ours; where no file imports `path`, no Python
    file's code names its definitions (a dynamic loader makes the answer unknown before this is
    asked). Any other file, or one that does not parse, may name it."""
    from devlint.workspace.importers import file_facts

    text = str(source)
    if not text.endswith(".py"):
        return True
    facts = next(file_facts([source], _BINDINGS, _bindings, SCAN_BUDGET), None)
    if facts is None:
        return True
    own, imported, bare, strings = facts
    if name in strings:
        return True
    if not importers:
        # no file imports `path` (nor re-exports it): a Python file's code reaches its
        # definitions only by importing it (an old `old_code/model.py` a script beside it
        # names without importing: a NameError there, not a call of ours)
        return False
    found = None
    if name in imported:
        module, level = imported[name]
        found = _resolved(text, module, level) if module or level else None
    ours = found is not None and same_file(found) == same_file(str(path))
    if name in own and not ours:
        return False  # SincNet's `speaker_id.py` defines its own `create_batches_rnd`
    if same_file(text) in importers:
        return not ours or name in bare
    if found is not None:
        if same_file(found) != same_file(str(path)) and not found.endswith("__init__.py"):
            defined = next(file_facts([Path(found)], _DEFINED, _defined, SCAN_BUDGET), None)
            return defined is None or name not in defined
    return True


_DEFINED: dict = {}  # (path, size, mtime) -> a file's top-level definitions
_RESOLVED: dict = {}  # (importer, module, level) -> the file its import names, this run
_RESOLVED_RUN = [None]  # the run `_RESOLVED` holds the answers of


def _defined(data: Optional[bytes]) -> Optional[frozenset]:
    if data is None:
        return None
    return frozenset(m.group(1).decode("ascii") for m in TOP_LEVEL.finditer(data))


def _resolved(importer: str, module: str, level: int) -> Optional[str]:
    """The project file `from module import ...` in `importer` names, once per run (a
    project's files each ask it of their own imports, not every file of each; a later run
    resolves again, where files may have come or gone)."""
    from devlint.workspace.importers import current_run

    if _RESOLVED_RUN[0] != current_run() or len(_RESOLVED) > 100_000:
        _RESOLVED.clear()
        _RESOLVED_RUN[0] = current_run()
    key = (importer, module, level)
    if key not in _RESOLVED:
        _RESOLVED[key] = project_of(importer).resolve(importer, module, level)
    return _RESOLVED[key]


def _parsed(data: Optional[bytes]):
    """The file's `ast` tree; None where there is no text or it does not parse."""
    import ast

    if data is None:
        return None
    try:
        return ast.parse(data)
    except (SyntaxError, ValueError, MemoryError, RecursionError):
        return None


def _bindings(data: Optional[bytes]) -> Optional[tuple]:
    """(names defined at top level, {name: (module, level)} of `from module import name`
    anywhere, names used bare outside import lines, identifier strings); None where the file
    does not parse."""
    import ast

    tree = _parsed(data)
    if tree is None:
        return None
    own = {s.name for s in tree.body if type(s) in (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)}
    imported: dict = {}
    bare: set = set()
    strings: set = set()
    for node in ast.walk(tree):
        kind = type(node)
        if kind is ast.ImportFrom:
            for alias in node.names:
                imported[alias.asname or alias.name] = (node.module or "", node.level)
        elif kind is ast.Name:
            bare.add(node.id)
        elif kind is ast.Constant and type(node.value) is str and node.value.isidentifier():
            strings.add(node.value)
    return frozenset(own), imported, frozenset(bare), frozenset(strings)


_CODE_WORDS: dict = {}  # (path, size, mtime) -> the words of a Python file outside its comments


def _names_in_code(source, name: str) -> bool:
    """Whether `source` names `name` outside comments (any text file but a Python one names
    what it holds; a Python file that does not tokenize, everything it holds)."""
    from devlint.workspace.importers import file_facts

    if not str(source).endswith(".py"):
        return True
    words = next(file_facts([source], _CODE_WORDS, _code_words, SCAN_BUDGET), None)
    return words is None or name in words


def _code_words(data: Optional[bytes]) -> Optional[frozenset]:
    from devlint.workspace.source import code_without_comments

    code = code_without_comments(data) if data is not None else None
    return None if code is None else _words(code)


_LIVE_WORDS: dict = {}  # (path, size, mtime) -> the words of the module's code that can run


def _only_dead_code_names(source, name: str, everything: list) -> bool:
    """Whether `source` is a module no file imports that names `name` only in code no run
    reaches: a module nothing runs at all (no `__main__` block, no call at its top level, its
    file named by no other file), or a script whose code at module level (its imports, its
    `__main__` block, and the definitions they name, through each other) never names it."""
    from devlint.workspace.accelerators import MAIN_BLOCK, TOP_LEVEL_CALL
    from devlint.workspace.importers import file_facts, importers_of

    text = str(source)
    if not text.endswith(".py") or _runs_on_its_own(text):
        return False
    importers = importers_of(text)
    if importers is None or importers:
        return False
    data = readable_source(text)
    if data is None:
        return False
    own = same_file(text)
    if MAIN_BLOCK.search(data) is None and TOP_LEVEL_CALL.search(data) is None and \
            not _file_named(text, [s for s in everything if same_file(str(s)) != own]):
        return True  # nothing runs it: what it names, it names for no run
    live = next(file_facts([source], _LIVE_WORDS, _live_words, SCAN_BUDGET), None)
    return live is not None and name not in live


def _file_named(path: str, others: list) -> bool:
    """Whether another file names the module's file (`python create_db.py` in a README, "use
    create_db.py" in a script's help): then users run it, whatever its text shows. Past the
    budget, yes."""
    from devlint.workspace.importers import file_facts

    stem = os.path.splitext(os.path.basename(path))[0]
    for words in file_facts(others, _WORDS, _words, SCAN_BUDGET):
        if words is None or stem in words:
            return True
    return False


def _live_words(data: Optional[bytes]) -> Optional[frozenset]:
    """The identifiers and identifier strings of a script's code that can run when nothing
    imports it: its statements at module level (the names its imports bind included: a script
    that imports `visualization` keeps it at hand), and the top-level definitions they name,
    through each other. None where it does not parse, or may look its own names up."""
    import ast

    tree = _parsed(data)
    if tree is None:
        return None

    definitions = {}
    live: set = set()
    for statement in tree.body:
        if type(statement) in (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef):
            definitions[statement.name] = statement
            if statement.decorator_list:
                live |= ast_words(statement)  # a decorator may register it
        elif type(statement) in (ast.Import, ast.ImportFrom):
            live |= {(alias.asname or alias.name).split(".")[0] for alias in statement.names}
        else:
            live |= ast_words(statement)
    if live & {"globals", "locals", "vars", "eval", "exec", "getmembers", "Fire", "__getattr__"}:
        return None
    pending = [name for name in definitions if name in live]
    seen = set(pending)
    while pending:
        found = ast_words(definitions[pending.pop()])
        live |= found
        for name in found:
            if name in definitions and name not in seen:
                seen.add(name)
                pending.append(name)
    return frozenset(live)


# Tools that run or import a module by a path or name computed at run time.
LOADS_BY_NAME = re.compile(rb"import_module|__import__|importlib|runpy|spec_from_file_location|"
                           rb"load_source|SourceFileLoader|entry_points|pkg_resources")
_LOADERS: dict = {}  # (path, size, mtime) -> whether the file loads modules by a computed name


_OWN_CALL = re.compile(rb"^([A-Za-z_][A-Za-z0-9_]*)\(", re.M)


def _script(data: bytes, defined: set) -> bool:
    """Whether a module runs as a script: a `__main__` block, or a call at module level of a
    function it defines (`main()`)."""
    from devlint.workspace.accelerators import MAIN_BLOCK

    return MAIN_BLOCK.search(data) is not None or any(
        match.group(1).decode("ascii") in defined for match in _OWN_CALL.finditer(data))


def _runs_on_its_own(path: str) -> bool:
    """Whether a module nothing imports runs anyway: a package's `__init__.py` (any import of
    the package runs it), a file pytest collects, or a notebook."""
    name = os.path.basename(path)
    return name == "__init__.py" or name == "conftest.py" or name.startswith("test_") or \
        name.endswith(("_test.py", ".ipynb"))


def _loads_by_name(sources: list, texts: list) -> bool:
    """Whether a file of the project may load a module by a name computed at run time (or a
    text file may name it for a plugin loader); past the budget, yes."""
    from devlint.workspace.importers import file_facts

    for found in file_facts(list(sources) + list(texts), _LOADERS,
                            lambda data: data is None or LOADS_BY_NAME.search(data) is not None,
                            SCAN_BUDGET):
        if found is None or found:
            return True
    return False


def _reads_namespace(data: bytes, module: str) -> bool:
    """Whether an importer may pick a name of `module` by a computed string: it reads the
    namespace of a name it bound to the module (`modellib.__dict__`, `vars(models)`,
    `getattr(models, args.arch)`, `inspect.getmembers(models)`), or it star-imports the module
    and reads its own (`globals()[name]`, `eval(name)`). A `vars(self)` or a `getattr(args,
    "lr")` of the importer reads no namespace of the module, nor does a method called `eval`
    (`model.eval()`, HCL's `deepinfomax.py`)."""
    name = re.escape(module.encode("ascii", "replace"))
    aliases = {module.encode("ascii", "replace")}
    for pattern in (rb"^[ \t]*import[ \t]+[^\n#;]*?(?:[\w.]*\.)?" + name + rb"[ \t]+as[ \t]+(\w+)",
                    rb"^[ \t]*from[ \t]+[\w.]*[ \t]+import[ \t]+[^\n#;]*?\b" + name +
                    rb"[ \t]+as[ \t]+(\w+)"):
        aliases.update(match.group(1) for match in re.finditer(pattern, data, re.M))
    for alias in aliases:
        alias = re.escape(alias)
        if re.search(rb"\b" + alias + rb"\s*\.\s*__dict__|\b(?:vars|dir|getmembers|getattr|hasattr)\(\s*" +
                     alias + rb"\s*[,)]", data):
            return True
    star = re.search(rb"^[ \t]*from[ \t]+[\w.]*\b" + name + rb"[ \t]+import[ \t]+\*", data, re.M)
    return star is not None and re.search(rb"(?<![\w.])(?:(?:globals|locals|vars)\(\s*\)|eval\()", data) is not None


def _words(data: Optional[bytes]) -> Optional[frozenset]:
    if data is None:
        return None
    return frozenset(word.decode("ascii") for word in WORD.findall(data))


def _text_files(root: str) -> Optional[list]:
    """The project's text files that are not Python sources, in a bounded walk."""
    from devlint.workspace.discovery import SKIPPED_DIRS

    if root in _TEXTS:
        return _TEXTS[root]
    found: Optional[list] = []
    for folder, folders, files in os.walk(root):
        folders[:] = sorted(name for name in folders
                            if name not in SKIPPED_DIRS and not name.startswith(".")
                            and not name.endswith(".egg-info"))
        for name in sorted(files):
            if name.endswith(TEXT_SUFFIXES):
                full = os.path.join(folder, name)
                try:
                    if os.path.getsize(full) > MAX_TEXT_FILE:
                        continue
                except OSError:
                    continue
                found.append(Path(full))
                if len(found) > MAX_TEXT_FILES:
                    _TEXTS[root] = None
                    return None
    _TEXTS[root] = found
    return found
