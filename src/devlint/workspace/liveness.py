"""Which of a module's top-level functions and classes no other file of its project names.

An application's code that nothing names is code no run follows: `normalize()` copied into
`utils/maskstransform.py` that no script calls, a loss class no model builds. devlint runs a
function no code of its own file calls on its own, with unknown arguments, because another
file may call it; when no other file can (none names it, in code, a string, a config or a
shell script), that run follows no path a program takes, and what it observes is no finding.

A package others install is different: its users' code, not in the project, calls its public
names. So the answer is `None` (unknown: everything may be called) for a distribution, for a
module no file of the project imports that may run on its own (a `__main__` block, a package's
`__init__.py`, a file pytest collects) or in a project that loads modules by a computed name
(`importlib`, as CycleGAN's `find_model_using_name` does), for one whose importers read its
namespace (`vars(modellib)`, `getattr(modellib, name)`, `modellib.__dict__`), for a project
whose files cannot all be read within the budget, and where there is no project. A module
nothing imports and nothing runs (a memory profiler no script uses) reaches none of its
definitions but those its own top-level code names.

Every text file of the project counts as naming a word it holds (`.py`, notebooks, YAML and
JSON configs a registry reads class names from, shell scripts, READMEs): a mention anywhere
keeps a definition live. Each file's words are read once per process and version.
"""
from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Optional

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
    defined = {match.group(1).decode("ascii") for match in TOP_LEVEL.finditer(data)}
    if not defined:
        return ()
    sources = project_sources(root)
    texts = _text_files(root)
    importers = importers_of(path)
    if sources is None or texts is None or importers is None:
        return None
    if not importers and (_runs_on_its_own(str(path), data) or _loads_by_name(sources, texts)):
        # no file imports it by name: it is an entry point, or a module found by a name
        # computed at run time (`importlib.import_module("models." + name + "_model")`)
        return None
    module = os.path.splitext(os.path.basename(str(path)))[0]
    if module == "__init__":
        module = os.path.basename(os.path.dirname(os.path.abspath(str(path))))
    for importer in sorted(importers):
        data = readable_source(str(importer))
        if data is None or _reads_namespace(data, module):
            return None  # `for name, cls in modellib.__dict__.items()`: any may be picked
    own = same_file(str(path))
    others = [source for source in list(sources) + texts if same_file(str(source)) != own]
    left = set(defined)
    for words in file_facts(others, _WORDS, _words, SCAN_BUDGET):
        if words is None:
            return None  # past the budget (or a file that cannot be read: it may name them)
        left -= words
        if not left:
            break
    return tuple(sorted(left))


# Tools that run or import a module by a path or name computed at run time.
LOADS_BY_NAME = re.compile(rb"import_module|__import__|importlib|runpy|spec_from_file_location|"
                           rb"load_source|SourceFileLoader|entry_points|pkg_resources")
_LOADERS: dict = {}  # (path, size, mtime) -> whether the file loads modules by a computed name


def _runs_on_its_own(path: str, data: bytes) -> bool:
    """Whether a module nothing imports may run its definitions by other means than its own
    top-level code (which keeps what it names live: `lint.model.liveness`): a `__main__`
    block, a package's `__init__.py` (any import of the package runs it), a file pytest
    collects, or a notebook. A top-level `matplotlib.use("Agg")` runs none of them."""
    from devlint.workspace.accelerators import MAIN_BLOCK

    name = os.path.basename(path)
    return name == "__init__.py" or name == "conftest.py" or name.startswith("test_") or \
        name.endswith(("_test.py", ".ipynb")) or MAIN_BLOCK.search(data) is not None


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
    "lr")` of the importer reads no namespace of the module."""
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
    return star is not None and re.search(rb"\b(?:globals|locals|vars)\(\s*\)|\beval\(", data) is not None


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
