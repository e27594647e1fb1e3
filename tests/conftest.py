from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "fixtures"
# Three SGD steps on whatever device the machine offers: a script verify can check.
TRAINING_SNIPPET = """\
import torch
device = "cuda" if torch.cuda.is_available() else "cpu"
model = torch.nn.Linear(4, 1).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for _ in range(3):
    opt.zero_grad()
    model(torch.randn(8, 4, device=device)).pow(2).mean().backward()
    opt.step()
"""
EXPECTATION = re.compile(r"#\s*error:\s*(?P<codes>DEV\d{3}(?:\s*,\s*DEV\d{3})*)")


def fixture_files() -> list[Path]:
    """Every bad_*.py and good_*.py under fixtures/, discovered, never listed by hand."""
    return sorted(p for p in FIXTURES.rglob("*.py") if p.name.startswith(("bad_", "good_")))


def fixture_sample(step: int = 3) -> list[Path]:
    """What a test of a whole run (its output format, its workers, its imports, flake8's view
    of it) checks instead of every fixture: every `step`-th good or bad fixture of each rule's
    folder, in sorted order, so every rule and both kinds stay in it; the notebooks; and the
    fixture projects, whole. Each rule's own fixtures are all checked by test_fixtures.py."""
    rules = fixture_files()
    sample = [path for folder in sorted({p.parent for p in rules})
              for path in sorted(p for p in rules if p.parent == folder)[::step]]
    return sample + sorted((FIXTURES / "notebooks").glob("*.ipynb")) + [FIXTURES / "projects"]


def expected_findings(path: Path) -> set[tuple[int, str]]:
    expected = set()
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        match = EXPECTATION.search(line)
        if match:
            for code in re.split(r"\s*,\s*", match.group("codes")):
                expected.add((number, code))
    return expected


@pytest.fixture(autouse=True)
def _private_cache(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each test gets an empty result cache of its own, never the checkout's `.devlint_cache`."""
    monkeypatch.setenv("DEVLINT_CACHE_DIR", str(tmp_path_factory.mktemp("devlint-cache")))


@pytest.fixture(scope="session")
def warm_verify():
    """In-process `devlint verify` calls share one launcher per seed: torch is imported once
    for the session instead of once per verification (2-3 s each)."""
    pytest.importorskip("torch")
    from devlint.verify.runner import warm_launcher

    with warm_launcher():
        yield


def python_sources() -> list[Path]:
    """Every .py file of fixtures/ and examples/ that libcst reads (a fixture project may hold
    an unparsable module on purpose, marked `# error: DEV999`, or valid Python libcst refuses,
    marked `# error: DEV998`)."""
    found = sorted(FIXTURES.rglob("*.py")) + sorted((ROOT / "examples").glob("*.py"))
    return [p for p in found
            if not any(code in ("DEV998", "DEV999") for _, code in expected_findings(p))]


def bounded(entry: str, cpu_seconds: int) -> str:
    """A program (for `python -c`) that runs `entry` with devlint's CPU limit at
    `cpu_seconds` and an analysis that spins for ever on a file with `# SPIN`, and asks for
    more than the memory cap on one with `# HOARD` (bytes() callocs: no page is touched)."""
    return f"""
import sys
import devlint.lint.analyze as engine
import devlint.core.limits as limits

limits.FILE_CPU_SECONDS = {cpu_seconds}
real = engine._analyze
def _analyze(text, *args, **kwargs):
    if "# SPIN" in text:
        while True:
            pass
    if "# HOARD" in text:
        hoard = bytes(limits.WORKER_MEMORY_BYTES + (2 << 30))
    return real(text, *args, **kwargs)
engine._analyze = _analyze
{entry}
"""


# The training loop of the turn3 repros (check_quadratic_memory, server_unbounded_analysis): one
# DEV004 at line 12 (`targets` never moved), used as the head of generated heavy files.
ONE_BUG_LOOP = """import torch
import torch.nn as nn
from torch.utils.data import DataLoader

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
model = nn.Linear(4, 1).to(device)
criterion = nn.MSELoss()
loader = DataLoader([])

for inputs, targets in loader:
    inputs = inputs.to(device)
    loss = criterion(model(inputs), targets)
"""
