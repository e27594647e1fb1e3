"""Which of a module's top-level functions and classes no other file of its project names.

An application's code that nothing names is code no run follows: `normalize()` copied into
`utils/maskstransform.py` that no script calls, a loss class no model builds. devlint runs a
function no code of its own file calls on its own, with unknown arguments, because another
file may call it; when no other file can (none names it, in code, a string, a config or a
shell script), that run follows no path a program takes, and what it observes is no finding.

A package others install is different: its users' code, not in the project, calls its public
names. So the answer is `None` (unknown: everything may be called) for a distribution, for a
module no file of the project imports (an entry point, or a module `importlib` finds by a
computed name, as CycleGAN's `find_model_using_name` does), for one whose importers read its
namespace (`modellib.__dict__`), for a project whose files cannot all be read within the
budget, and where there is no project.

Every text file of the project counts as naming a word it holds (`.py`, notebooks, YAML and
JSON configs a registry reads class names from, shell scripts, READMEs): a mention anywhere
keeps a definition live. Each file's words are read once per process and version.
"""
from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Optional

from devlint.workspace.project import project_of, same_file

# A definition at column 0 of the module: what another file could import.
TOP_LEVEL = re.compile(rb"^(?:async[ \t]+def|def|class)[ \t]+([A-Za-z_][A-Za-z0-9_]*)", re.M)
WORD = re.compile(rb"[A-Za-z_][A-Za-z0-9_]*")
# The text files besides `.py` and `.ipynb` that may name a definition.
TEXT_SUFFIXES = (".yaml", ".yml", ".json", ".toml", ".cfg", ".ini", ".sh", ".bash", ".txt",
                 ".md", ".rst", ".jsonnet", ".gin", ".conf")
MAX_TEXT_FILE = 1 << 20  # larger text files are data, not configs
SCAN_BUDGET = 48 << 20
MAX_TEXT_FILES = 4000
# An importer that reads a module's namespace may pick any of its names by a computed string.
NAMESPACE_READS = frozenset({"__dict__", "getmembers", "vars", "dir", "globals"})

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
    if sources is None or texts is None or not importers:
        # no file imports it by name: it is an entry point, or a module found by a name
        # computed at run time (`importlib.import_module("models." + name + "_model")`)
        return None
    for words in file_facts(sorted(importers), _WORDS, _words, SCAN_BUDGET):
        if words is None or words & NAMESPACE_READS:
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
