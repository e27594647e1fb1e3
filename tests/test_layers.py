"""The layers import one way: core <- workspace <- lint <- verify <- bench <- the faces (cli,
server, the flake8 plugin). Every import counts, those inside functions too: a lazy import is
still a dependency, and a cycle through one is still a cycle."""
import ast
from pathlib import Path

import devlint

PACKAGE = Path(devlint.__file__).parent
# Leaf modules every layer may use: they import no layer.
LEAVES = {"core": 0, "hints": 0, "home": 0}
LAYERS = {**LEAVES, "workspace": 1, "lint": 2, "verify": 3, "bench": 4}


def _layer(module: str):
    """The layer of `devlint.x.y` (None for a face or for something outside devlint)."""
    parts = module.split(".")
    if parts[0] != "devlint" or len(parts) < 2:
        return None
    return LAYERS.get(parts[1])


def _imports(path: Path):
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            yield node.lineno, node.module
        elif isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name


def upward_imports(package: Path = PACKAGE) -> list:
    found = []
    for path in sorted(package.rglob("*.py")):
        relative = path.relative_to(package.parent).with_suffix("")
        own = _layer(".".join(relative.parts))
        if own is None:
            continue
        for line, module in _imports(path):
            theirs = _layer(module)
            if theirs is not None and theirs > own and module.split(".")[1] not in LEAVES:
                found.append(f"{path.relative_to(package)}:{line} imports {module}")
    return found


def test_no_layer_imports_a_layer_above_it():
    assert upward_imports() == []


def test_the_check_sees_an_upward_import(tmp_path):
    fake = tmp_path / "devlint"
    (fake / "workspace").mkdir(parents=True)
    (fake / "workspace" / "cache.py").write_text("def f():\n    from devlint.lint.analyze import x\n")
    (fake / "lint").mkdir()
    (fake / "lint" / "runner.py").write_text("from devlint.workspace.cache import f\n")
    assert upward_imports(fake) == ["workspace/cache.py:2 imports devlint.lint.analyze"]
