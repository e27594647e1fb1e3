"""benchmarks/heldout/check_names.py: the names a held-out candidate may go by, so that a repo
used before under its project name is caught before the fetch (sets 18 and 19 missed five)."""
from __future__ import annotations

import importlib.util
from pathlib import Path

SCRIPT = Path(__file__).resolve().parent.parent / "benchmarks" / "heldout" / "check_names.py"
spec = importlib.util.spec_from_file_location("check_names", SCRIPT)
check_names = importlib.util.module_from_spec(spec)
spec.loader.exec_module(check_names)


def test_project_names_written_in_prose_are_searched() -> None:
    assert "OpenFlamingo".lower() in {v.lower() for v in check_names.variants("mlfoundations/open_flamingo")}
    assert "descript audio codec" in check_names.variants("descriptinc/descript-audio-codec")
    assert "pretrained-models" in check_names.variants("Cadene/pretrained-models.pytorch")
    assert "glide" in check_names.variants("openai/glide-text2im")
    assert "ViT" in check_names.variants("jeonsworld/ViT-pytorch", ("ViT",))


def test_common_words_and_short_affix_stems_are_not_names() -> None:
    assert "segment" not in check_names.variants("facebookresearch/segment-anything")
    assert "video" not in check_names.variants("facebookresearch/pytorchvideo")
    assert "VAE" not in check_names.variants("AntixK/PyTorch-VAE")


def test_a_hit_is_reported_with_its_place(tmp_path) -> None:
    text = {check_names.ROOT / "docs" / "x.md": ["Held-out half (minDiffusion, OpenFlamingo, DLRM)"]}
    found = check_names.hits("mlfoundations/open_flamingo", text, None)
    assert len(found) == 1 and "docs/x.md:1" in found[0]
    assert check_names.hits("salesforce/LAVIS", text, None) == []
