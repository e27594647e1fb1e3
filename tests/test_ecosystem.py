"""The ecosystem check's comparison, offline: a corpus of one local project, a triage, and the
exit status and figures `scripts/ecosystem.py` gives (the real corpus runs in `.ci/run`)."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import ROOT

SCRIPT = ROOT / "scripts" / "ecosystem.py"
HEADER = "project\tpath\tline\tcode\tverdict\tidiom\tpresent\tnote\n"
# A CUDA device made but not yet used, which raises nothing by itself: the literal in `batch()`,
# called after it, stays a finding of its own (past a stop, such as a `.cuda()`, it would be
# counted in that one's finding).
TRAIN = """import torch

gpu = torch.device("cuda")
def batch(): return torch.zeros(2, 4, device="cuda")
print(batch().to(gpu))
y = torch.zeros(1).to("cuda" if torch.cuda.is_available() else "cpu")  # a fallback: two slips
"""


@pytest.fixture()
def corpus(tmp_path: Path) -> Path:
    (tmp_path / "src" / "demo==1.0").mkdir(parents=True)
    (tmp_path / "src" / "demo==1.0" / "train.py").write_text(TRAIN)
    (tmp_path / "corpus.json").write_text(json.dumps([{"name": "demo", "version": "1.0", "sha256": "0" * 64}]))
    return tmp_path


def run(corpus: Path, rows: list[str], *extra: str) -> subprocess.CompletedProcess:
    (corpus / "triage.tsv").write_text(HEADER + "".join(r + "\n" for r in rows))
    return subprocess.run([sys.executable, str(SCRIPT), "--corpus", str(corpus / "corpus.json"),
                           "--triage", str(corpus / "triage.tsv"), "--sources", str(corpus / "src"), *extra],
                          capture_output=True, text=True, timeout=300)


ROWS = ["demo\ttrain.py\t3\tDEV001\ttrue\ta CUDA device at module level\tyes\t",
        "demo\ttrain.py\t4\tDEV001\tfalse\tmade up for the test\tyes\t"]


def test_every_finding_triaged_passes_with_figures(corpus: Path) -> None:
    done = run(corpus, ROWS)
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.splitlines()[-1] == (
        "ecosystem: 1 files, 2 findings (1 true, 1 false, 0 debatable), precision 50.0%, 200.00 per 100 files")


def test_a_deleted_triage_row_fails_and_prints_the_finding(corpus: Path) -> None:
    done = run(corpus, ROWS[:1])
    assert done.returncode == 1
    assert "new finding: demo/train.py:4: DEV001 [untriaged]" in done.stdout
    assert 'def batch(): return torch.zeros(2, 4, device="cuda")' in done.stdout
    assert "untriaged: demo/train.py:4: DEV001" in done.stdout


def test_a_true_finding_that_goes_away_needs_a_note(corpus: Path) -> None:
    (corpus / "src" / "demo==1.0" / "train.py").write_text(TRAIN.replace('gpu = torch.device("cuda")',
                                                                        'gpu = torch.device("cpu")'))
    done = run(corpus, ROWS)
    assert done.returncode == 1
    assert "went away: demo/train.py:3: DEV001 [true: a CUDA device at module level]" in done.stdout
    assert "true finding went away without a note: demo/train.py:3: DEV001" in done.stdout
    noted = [ROWS[0][:-1] + "\tthe file no longer names a CUDA device there", ROWS[1]]
    assert run(corpus, noted).returncode == 0


def test_accept_records_what_is_present(corpus: Path) -> None:
    rows = [ROWS[0], ROWS[1].replace("\tyes\t", "\tno\t"),
            "demo\told.py\t9\tDEV006\tfalse\tgone for good\tyes\t"]
    done = run(corpus, rows, "--accept")
    assert done.returncode == 0, done.stdout
    assert "new finding: demo/train.py:4" in done.stdout and "went away: demo/old.py:9" in done.stdout
    table = (corpus / "triage.tsv").read_text().splitlines()
    assert "demo\ttrain.py\t4\tDEV001\tfalse\tmade up for the test\tyes\t" in table
    assert "demo\told.py\t9\tDEV006\tfalse\tgone for good\tno\t" in table
    again = run(corpus, table[1:])
    assert "new finding" not in again.stdout and "went away" not in again.stdout


def test_the_committed_triage_covers_the_corpus_and_reads() -> None:
    corpus = json.loads((ROOT / "benchmarks" / "ecosystem" / "corpus.json").read_text())
    assert len(corpus) >= 40
    names = {e["name"] for e in corpus}
    assert not names & {"pytorch-ignite", "d2l", "llms-from-scratch", "denoising-diffusion-pytorch",
                        "poutyne", "skorch", "accelerate", "lightning"}
    assert all(len(e["sha256"]) == 64 for e in corpus)
    sys.path.insert(0, str(ROOT / "scripts"))
    try:
        import ecosystem
    finally:
        sys.path.pop(0)
    rows = ecosystem.read_triage(ROOT / "benchmarks" / "ecosystem" / "triage.tsv")
    assert rows and {r["project"] for r in rows.values()} <= names
    assert all(r["verdict"] in ecosystem.VERDICTS for r in rows.values())
