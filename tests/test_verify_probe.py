"""Is there a GPU? Answered without importing torch (issue 21, speed): the torch build's
version.py, the driver's /proc entries, CUDA_VISIBLE_DEVICES."""
from __future__ import annotations

import importlib.machinery
import importlib.util

from devlint.verify import probe


def fake_torch(tmp_path, monkeypatch, cuda: str) -> None:
    package = tmp_path / "torch"
    package.mkdir(exist_ok=True)
    (package / "version.py").write_text(f"__version__ = '2.13.0'\ncuda: Optional[str] = {cuda}\n")
    spec = importlib.machinery.ModuleSpec("torch", None, is_package=True)
    spec.submodule_search_locations = [str(package)]
    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec",
                        lambda name, *a: spec if name == "torch" else real(name, *a))


def test_a_cuda_build_is_told_from_a_cpu_build(tmp_path, monkeypatch):
    fake_torch(tmp_path, monkeypatch, "'12.8'")
    assert probe.torch_has_cuda()
    fake_torch(tmp_path, monkeypatch, "None")
    assert not probe.torch_has_cuda()


def test_cuda_visible_devices_can_hide_the_gpu(monkeypatch):
    for value, hidden in (("", True), ("-1", True), ("0", False)):
        monkeypatch.setenv("CUDA_VISIBLE_DEVICES", value)
        assert probe.cuda_hidden() is hidden
    monkeypatch.delenv("CUDA_VISIBLE_DEVICES")
    assert not probe.cuda_hidden()
