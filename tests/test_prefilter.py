"""The text prefilter may only skip files that cannot hold a finding."""
from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from devlint.lint import analyze as engine, prefilter
from devlint.lint.analyze import analyze_source
from devlint.lint.rules import ALL_RULES

from conftest import ROOT, fixture_files

ALL_CODES = [rule.code for rule in ALL_RULES]


def skipped_by_prefilter(paths: list[Path]) -> list[tuple[Path, str]]:
    texts = []
    for path in paths:
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            continue
        if not prefilter.could_match(text, ALL_CODES):
            texts.append((path, text))
    return texts


def findings_without_prefilter(monkeypatch: pytest.MonkeyPatch, path: Path, text: str) -> list:
    monkeypatch.setattr(engine, "could_match", lambda text, codes: True)
    return [f for f in analyze_source(text, str(path)) if f.code != "DEV999"]


@pytest.mark.parametrize("code, text", [
    ("DEV002", "for x, y in loader:\n    out = model . to (dev)(x)\n"),
    ("DEV002", "def train(model, loader, Device):\n    for x, y in loader:\n        model(x)\n"),
    ("DEV005", "for x, y in loader:\n    x.\\\n        cuda()\n"),
    ("DEV008", "import torch as th\nstate = th.load('ckpt.pt')\n"),
    ("DEV008", "state = torch .load ('ckpt.pt')\n"),
    ("DEV006", "h = torch.zeros (1, 2)\nh = h.to(dev)\n"),
    ("DEV010", "class M(nn.Module):\n    def __init__(self):\n        self.w = th.ones(3)\n"),
    ("DEV011", "preds = model.to(dev)(x).numpy ()\n"),
])
def test_unusual_spellings_still_pass(code: str, text: str) -> None:
    assert prefilter.could_match(text, [code])


@pytest.mark.parametrize("code, text", [
    ("DEV001", "import numpy as np\nx = np.zeros(3)\n"),
    ("DEV008", "state = pickle.load(f)\n"),
    ("DEV010", "class M(nn.Module):\n    def __init__(self):\n        self.w = np.ones(3)\n"),
    ("DEV013", "rank = 0\n"),
])
def test_files_without_the_words_are_skipped(code: str, text: str) -> None:
    assert not prefilter.could_match(text, [code])


def test_unknown_codes_always_run() -> None:
    assert prefilter.could_match("", ["DEV123"])


def test_skipped_fixtures_and_examples_have_no_findings(monkeypatch: pytest.MonkeyPatch) -> None:
    paths = fixture_files() + sorted((ROOT / "examples").glob("*.py"))
    skipped = skipped_by_prefilter(paths)
    assert skipped, "some good fixtures hold no device code at all"
    for path, text in skipped:
        assert findings_without_prefilter(monkeypatch, path, text) == [], path


@pytest.mark.skipif(importlib.util.find_spec("torch") is None, reason="needs the torch package as a real tree")
def test_skipped_files_of_a_real_tree_have_no_findings(monkeypatch: pytest.MonkeyPatch) -> None:
    """A slice of the installed torch package; benchmarks/lint_speed.py --check-prefilter
    checks every file of a tree."""
    root = Path(importlib.util.find_spec("torch").origin).parent
    paths = sorted(p for p in root.rglob("*.py") if p.stat().st_size < 40_000)
    skipped = skipped_by_prefilter(paths)
    assert len(skipped) > 200  # the filter does skip a large share of a library tree
    for path, text in skipped[:: max(1, len(skipped) // 40)]:
        assert findings_without_prefilter(monkeypatch, path, text) == [], path
