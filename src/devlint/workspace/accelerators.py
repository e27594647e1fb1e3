"""Whether a project names an accelerator anywhere: the fact behind devlint's convention that
a module's `forward`, run on its own, runs on the device. And whether another file of it makes
the GPU the process's default for new tensors.

That convention stands for projects that put their models on a GPU somewhere, and for
libraries, whose users' code (not in the project) moves their models. An application none of
whose files names an accelerator (no `cuda`, `gpu`, `mps`, `xla`, accelerate, a framework
trainer that places the model, `device_map`) never does: its models run where they were
built, on the CPU (TranAD trains with `model_class(dims).double()` and nothing else), so a
tensor made on the CPU in their `forward` meets CPU layers.

The project's files are read as text, each once per process and version, within a byte budget;
the answer is `None` where the project walk is not known (too many files) or the budget ends.
"""
from __future__ import annotations

import ast
import os
import re
from typing import Optional

from devlint.workspace.notebook import NotebookError, cell_source, load, program
from devlint.workspace.project import builds_only_extensions, project_of, same_file
from devlint.workspace.source import code_without_comments

# (`accelerate`, `Accelerator`, `accelerator="gpu"`; not a physics code's `get_accelerations`)
ACCELERATOR = re.compile(
    rb"cuda|gpu|accelerat(?:e|ors?)\b|\b(?:mps|xla|npu|xpu|hpu|tpu)\b|torch_xla|Trainer|Fabric|\.prepare\(|"
    rb"device_map|set_default_device", re.I)
SCAN_BUDGET = 64 << 20

_FILES: dict = {}  # (path, size, mtime) -> whether its text names an accelerator


def names_accelerator(path: str) -> Optional[bool]:
    """Whether a file of the project of `path` names an accelerator (see above); None where
    that is not known, and for a distribution (a package others install: normflows' flows
    run wherever its users' code moves them, and that code is not in the project)."""
    from devlint.workspace.importers import file_facts, project_sources

    root = project_of(str(path)).root
    if _distribution(root):
        return None
    sources = project_sources(root)
    if sources is None:
        return None
    for found in file_facts(sources, _FILES, _names_one, SCAN_BUDGET):
        if found is not False:
            return found  # True, or None past the budget
    return False


# `torch.set_default_tensor_type("torch.cuda.FloatTensor")` (or `torch.cuda.FloatTensor`
# itself), `torch.set_default_device(device)`: any setting but a literal CPU one.
DEFAULT_SETTING = re.compile(
    rb"set_default_tensor_type\([^)\n]*cuda|set_default_device\((?!\s*['\"]cpu['\"])")
_DEFAULTS: dict = {}  # (path, size, mtime) -> whether its text sets the default on a GPU
MAX_LOADED = 4096  # the files a setter's imports reach, followed up to this many


def default_elsewhere(path: str) -> Optional[bool]:
    """Whether a file whose run loads `path` (`path` is among the files its imports reach, at
    any depth) sets the default tensor type or device to an accelerator: that setting holds for
    the whole process, so the factories of the modules that run imports make their tensors on
    the GPU (ASTER's `main.py` sets `torch.cuda.FloatTensor` when it uses the GPU, and its
    recognition head makes its states with plain `torch.zeros`); so does a file that imports a
    module which sets it on import. A script beside it that
    imports nothing of it sets nothing for it. None where the project's files are not known or
    the budget ends. Most projects set no such default: one pass over the files' memoized
    facts answers them; only the setters' imports are followed."""
    from devlint.workspace.importers import (file_facts, importers_of, imports_of, project_sources,
                                             same_file)

    project = project_of(str(path))
    sources = project_sources(project.root)
    if sources is None:
        return None
    setters = []
    for source, found in zip(sources, file_facts(sources, _DEFAULTS, _sets_default, SCAN_BUDGET)):
        if found is None:
            return None
        if found:
            setters.append(same_file(source))
    own = same_file(str(path))
    # A module that sets it on import (`models/utils.py`: `if torch.cuda.is_available():
    # torch.set_default_tensor_type(torch.cuda.FloatTensor)`) sets it for every process that
    # imports it: its importers' imports load in that process too.
    for setter in list(setters):
        for importer in importers_of(setter) or ():
            if importer == own and own not in setters:
                return True  # (its own run imports the setting, which its code does not show)
            if importer not in setters:
                setters.append(importer)
    reached, pending = set(setters), list(setters)
    while pending and len(reached) < MAX_LOADED:
        for imported in imports_of(pending.pop(), project):
            if imported == own and own not in setters:
                return True
            if imported not in reached:
                reached.add(imported)
                pending.append(imported)
    return False


def _sets_default(data: Optional[bytes]) -> bool:
    return data is not None and DEFAULT_SETTING.search(data) is not None


def _names_one(data: Optional[bytes]) -> bool:
    """Whether a file's text names an accelerator; a notebook's by its code cells only (the
    base64 of a saved plot holds `GPu` by chance), and a Python file's by its code, not its
    comments (a project that commented out every `.cuda()`, `x = torch.zeros(1) #.cuda()`,
    names none). Bytes that are no notebook count whole, comments included, where they do not
    tokenize as Python."""
    if data is None or ACCELERATOR.search(data) is None:
        return False
    if data.lstrip()[:1] != b"{":
        code = code_without_comments(data)
        return code is None or ACCELERATOR.search(code) is not None
    try:
        cells = load(data)["cells"]
    except NotebookError:
        return True
    code = "\n".join(cell_source(cell) for cell in cells if cell.get("cell_type") == "code")
    return ACCELERATOR.search(code.encode("utf-8", "replace")) is not None


def _distribution(root: str) -> bool:
    """A package others install: `setup.py`, or `setup.cfg` or `pyproject.toml` naming one. A
    `setup.py` that builds only extensions (`setup(ext_modules=cythonize("box_overlaps.pyx"))`,
    no `packages`, `py_modules` or `package_dir`) installs none of the project's modules: its
    scripts are still an application's (VoxelNet-pytorch)."""
    setup = os.path.join(root, "setup.py")
    if os.path.exists(setup):
        return not builds_only_extensions(setup)
    for name, marks in (("setup.cfg", (b"[metadata]",)),
                        ("pyproject.toml", (b"[project]", b"[tool.poetry]", b"[build-system]"))):
        try:
            with open(os.path.join(root, name), "rb") as handle:
                text = handle.read(1 << 20)
        except OSError:
            continue
        if any(mark in text for mark in marks):
            return True
    return False


# `torch.cuda.set_device(args.gpu_id)` as a statement of its own at the top level of a
# script's `if __name__ == "__main__":` block (or of the module): the script stops at it on a
# machine without a GPU. An importer is parsed (CPython's `ast`) only when its bytes name it.
SET_DEVICE = re.compile(rb"cuda\.set_device\(")
_ENTRY_FACTS: dict = {}  # (path, size, mtime) -> `_entry_facts` of the file
MAX_IMPORTER_DEPTH = 3


def gpu_only_importers(path: str) -> bool:
    """Whether every file of the project that imports `path` runs only with a GPU: a script
    that sets its CUDA device unconditionally before anything else can run (meta-learning
    repos: `train.py`, `test.py` and `train_omniglot.py` each start their `__main__` block
    with `torch.cuda.set_device(args.gpu_id)`), or a module only such files import (followed
    MAX_IMPORTER_DEPTH importers up). Then the module's code is never run without a GPU, and
    a CUDA literal in it is no slip. A notebook counts as a script whose code cells run in
    order (fewshotlocal's `Train.ipynb` sets its GPU in its settings cell). False where any
    importer is another script or a test, where nothing imports it, and where the project is
    not known.

    Most projects set no CUDA device anywhere: one pass over the files' memoized facts answers
    them. For the others the answers are kept per project while no file of it changes (the
    sizes and times of its files), so a run asks each module once."""
    from devlint.workspace.importers import file_facts, project_sources, version

    root = project_of(str(path)).root
    sources = project_sources(root)
    if sources is None:
        return False
    named = list(file_facts(sources, _SETS_DEVICE, _names_set_device, SCAN_BUDGET))
    if None in named or not any(named):
        return False  # past the budget (not known), or no file sets a CUDA device
    stamp = []
    for source in sources:
        found = version(source)
        if found is not None:
            stamp.append((str(source),) + found)
    known = _ANSWERS.get(root)
    if known is None or known[0] != stamp:
        known = _ANSWERS[root] = (stamp, {})
    return _gpu_only(same_file(path), MAX_IMPORTER_DEPTH, set(), known[1])


_SETS_DEVICE: dict = {}  # (path, size, mtime) -> whether its text calls `cuda.set_device(`
_ANSWERS: dict = {}  # project root -> (its files' sizes and times, {module: answer})


def _names_set_device(data: Optional[bytes]) -> bool:
    return data is not None and SET_DEVICE.search(data) is not None


def _gpu_only(key: str, depth: int, seen: set, answers: dict) -> bool:
    """(`answers`: this project's, by module and depth; an import cycle answers no, which
    only keeps findings.)"""
    if key in seen or depth <= 0:
        return False
    known = answers.get((key, depth))
    if known is None:
        seen.add(key)
        known = answers[(key, depth)] = _importers_gpu_only(key, depth, seen, answers)
    return known


def _importers_gpu_only(key: str, depth: int, seen: set, answers: dict) -> bool:
    from devlint.workspace.importers import file_facts, importers_of

    importers = importers_of(key)
    if not importers and os.path.basename(key) == "__init__.py":
        # a package's `__init__.py` runs when any module of the package is imported
        folder = os.path.dirname(key)
        importers = frozenset(p for name in sorted(os.listdir(folder))[:64]
                              if name.endswith(".py") and name != "__init__.py"
                              for p in importers_of(os.path.join(folder, name)) or ()
                              if os.path.dirname(p) != folder)
    if not importers:
        return False
    modules = []
    for importer in sorted(importers):
        if importer.endswith(".ipynb"):
            # a notebook is a script whose cells run in order: fewshotlocal's `Train.ipynb`
            # calls `torch.cuda.set_device(gpu)` in its settings cell, before any code of its own
            facts = next(file_facts([importer], _NOTEBOOK_FACTS, _notebook_entry_facts,
                                    SCAN_BUDGET), None)
        elif importer.endswith(".py"):
            facts = next(file_facts([importer], _ENTRY_FACTS, _entry_facts, SCAN_BUDGET), None)
        else:
            return False
        if facts is None:
            return False
        needs_gpu, script = facts
        if not needs_gpu and script:
            return False  # a script that runs without a GPU: no need to look further
        if not needs_gpu:
            modules.append(importer)
    return all(_gpu_only(importer, depth - 1, seen, answers) for importer in modules)


def _entry_facts(data: Optional[bytes]) -> tuple:
    """(whether the file is a script whose `__main__` block, or top level, sets the CUDA device
    before it calls any code of its own, whether it may run as a script: a `__main__` block or
    a call at column 0, read from the bytes, where a line of a docstring that looks so only
    keeps findings). Parsed (CPython's `ast`) only when the bytes name `cuda.set_device(`; a
    file that does not parse then is a script that needs nothing."""
    if data is None:
        return False, True
    script = MAIN_BLOCK.search(data) is not None or TOP_LEVEL_CALL.search(data) is not None
    if SET_DEVICE.search(data) is None:
        return False, script
    try:
        tree = ast.parse(data)
    except (SyntaxError, ValueError):
        return False, True
    blocks = [tree.body] + [s.body for s in tree.body if _main_test(s)]
    for body in blocks:
        for statement in body:
            if type(statement) is ast.Expr and type(statement.value) is ast.Call:
                if _set_device(statement.value):
                    return True, script
                if type(statement.value.func) is ast.Name and statement.value.func.id != "print":
                    break  # a call of code before it (`main(args)`) runs first
    return False, script


_NOTEBOOK_FACTS: dict = {}  # (path, size, mtime) -> `_notebook_entry_facts` of the notebook


def _notebook_entry_facts(data: Optional[bytes]) -> tuple:
    """`_entry_facts` of a notebook's program (`workspace.notebook.program`: its code cells in
    order, IPython's lines left out); a notebook that cannot be read needs nothing."""
    if data is None or SET_DEVICE.search(data) is None:
        return False, True
    try:
        text = program(load(data)).text
    except NotebookError:
        return False, True
    return _entry_facts(text.encode("utf-8", "replace"))[0], True


MAIN_BLOCK = re.compile(rb"^if\s+__name__\s*==", re.M)
TOP_LEVEL_CALL = re.compile(rb"^[A-Za-z_][\w.]*\(", re.M)


def _main_test(statement) -> bool:
    return type(statement) is ast.If and type(statement.test) is ast.Compare and \
        type(statement.test.left) is ast.Name and statement.test.left.id == "__name__"


def _set_device(call) -> bool:
    func = call.func
    return type(func) is ast.Attribute and func.attr == "set_device" and \
        type(func.value) is ast.Attribute and func.value.attr == "cuda" and \
        type(func.value.value) is ast.Name and func.value.value.id == "torch"


# A `setup.py` building an extension from CUDA sources, and the names of the extensions it
# declares (`CppExtension(name='Align1D', sources=[..., 'Align1D_cuda_kernal.cu'])`).
CUDA_SOURCES = re.compile(rb"""\.cu['"]|\bCUDAExtension\b""")
EXTENSION_NAME = re.compile(rb"""\b\w*Extension\(\s*(?:name\s*=\s*)?['"]([A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*)['"]""")
_EXTENSIONS: dict = {}  # (path, size, mtime) -> the CUDA extension names a setup.py declares


def cuda_extensions(path: str) -> tuple:
    """The top-level module names of the extensions that a `setup.py` of the project of `path`
    builds with CUDA sources (G-TAD's `gtad_lib/setup.py` builds `Align1D` from a `.cu`
    kernel): `import Align1D` needs a GPU, as `import knn_cuda` does; sorted, empty where
    none is known. A dotted name (`pointnet2._ext`, `nms.details`) is kept whole
    (`torch_api.loads_extension` says which imports load it)."""
    from devlint.workspace.importers import file_facts, project_sources

    sources = project_sources(project_of(str(path)).root)
    if not sources:
        return ()
    setups = [source for source in sources if os.path.basename(str(source)) == "setup.py"]
    found: set = set()
    for names in file_facts(setups, _EXTENSIONS, _cuda_extension_names, SCAN_BUDGET):
        found |= names or set()
    return tuple(sorted(found))


def _cuda_extension_names(data: Optional[bytes]) -> frozenset:
    if data is None or CUDA_SOURCES.search(data) is None:
        return frozenset()
    return frozenset(match.group(1).decode("ascii") for match in EXTENSION_NAME.finditer(data))
