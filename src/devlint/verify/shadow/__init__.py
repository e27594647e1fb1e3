"""Shadow CUDA ("cuda-sim"): check device placement on a machine without a GPU.

A tensor "on cuda:0" is an ordinary CPU tensor whose class is a tagging subclass; one global
TorchFunctionMode reports such tensors as CUDA tensors and raises PyTorch's own errors when a
CPU tensor meets one. Values are computed by the ordinary CPU kernels, so losses are
bit-identical to a CPU run. It is a checker, not an emulator: no streams, no memory. It has one
GPU, or under torchrun as many as ranks per node, as a machine with one GPU per rank has.

Imported only in a verify child process (it imports torch). Usage, after `import torch` and
before the user's script runs:

    from devlint.verify import shadow
    handle = shadow.install(user_root="/abs/dir/of/script")   # devices=N, home=LOCAL_RANK
"""
from __future__ import annotations

import os
import sys
from dataclasses import dataclass, field

import torch

from devlint.verify.shadow import patches
from devlint.verify.shadow.mode import ShadowMode
from devlint.verify.shadow.origin import OriginBook
from devlint.verify.shadow.tensor import (
    ACCELERATOR, ShadowCudaParameter, ShadowCudaTensor, is_tagged, tag, untag,
)

__all__ = [
    "SUPPORTED_TORCH", "ShadowUnsupported", "ShadowHandle", "install", "creation_site",
    "is_tagged", "ShadowCudaTensor", "ShadowCudaParameter",
]

# The torch releases whose internals this module was written against and tested with.
SUPPORTED_TORCH = ("2.13",)
# Set to 1 to try an untested torch release anyway (the probes below must still pass).
ALLOW_UNTESTED_ENV = "DEVLINT_SHADOW_ALLOW_UNTESTED_TORCH"


class ShadowUnsupported(RuntimeError):
    """The installed torch is not one the shadow knows to be right on."""


@dataclass
class ShadowHandle:
    mode: ShadowMode
    book: OriginBook
    patcher: patches.Patcher = field(repr=False)

    def uninstall(self) -> None:
        """Leave the mode and undo the patches (tests; a verify child simply exits)."""
        self.mode.__exit__(None, None, None)
        self.patcher.undo()
        global _installed
        _installed = None


_installed: ShadowHandle | None = None


def install(user_root: str, devices: int = 1, home: int | None = None) -> ShadowHandle:
    """Patch torch and enter the global mode. Call once, in the verify child only. `devices`
    GPUs exist; `home` is the one of this torchrun rank (its LOCAL_RANK): a tensor elsewhere
    is the misplaced one when two GPUs meet."""
    global _installed
    if _installed is not None:
        return _installed
    refuse_unknown_torch()
    ACCELERATOR.configure(devices, home)
    ACCELERATOR.tagged = 0  # the probes tag a tensor of their own: the script has placed nothing
    ACCELERATOR.sites.clear()
    book = OriginBook(user_root)
    ACCELERATOR.locate = lambda: _as_dict(book.current_site())
    patcher = patches.Patcher()
    for patch in (patches.patch_cuda, patches.patch_accelerator, patches.patch_backends,
                  patches.patch_pin_memory, patches.patch_module_to, patches.patch_optimizers,
                  patches.patch_generator, patches.patch_legacy_types, patches.patch_variable,
                  patches.patch_serialization, patches.patch_tensorless_hot_calls,
                  patches.patch_compile, patches.patch_autocast):
        patch(patcher)
    patches.patch_parameter(patcher, book)
    # DataLoader workers forked from here have no use for creation sites: stop paying for them.
    os.register_at_fork(after_in_child=lambda: setattr(book, "recording", False))
    mode = ShadowMode(book)
    patches.patch_default_device(patcher, mode)
    mode.__enter__()
    _installed = ShadowHandle(mode, book, patcher)
    return _installed


def usage() -> dict:
    """Did the run place anything on the simulated accelerator, which kind was it, and where
    did it first place a tensor on each GPU ({"0": site or None})."""
    return {"used": ACCELERATOR.tagged > 0, "type": ACCELERATOR.type,
            "first_use": {str(index): site for index, site in sorted(ACCELERATOR.sites.items())}}


def _as_dict(site) -> dict | None:
    return site.as_dict() if site is not None else None


def notes() -> list[str]:
    return list(patches.NOTES)


def make_saved_files_portable(wanted=lambda path: True) -> list[str]:
    return patches.make_saved_files_portable(wanted)


def creation_site(tensor) -> dict | None:
    """{"path", "line", "function"} of the user line that created this CPU tensor, if known."""
    if _installed is None:
        return None
    site = _installed.book.site_of(tensor)
    return site.as_dict() if site is not None else None


# -- refusing a torch we do not know ----------------------------------------------------------
def refuse_unknown_torch() -> None:
    version = ".".join(torch.__version__.split("+")[0].split(".")[:2])
    if version not in SUPPORTED_TORCH and os.environ.get(ALLOW_UNTESTED_ENV) != "1":
        raise ShadowUnsupported(
            f"devlint cuda-sim was written against torch {', '.join(SUPPORTED_TORCH)}, not "
            f"{torch.__version__}; set {ALLOW_UNTESTED_ENV}=1 to try it anyway."
        )
    missing = [name for name, probe in _PROBES if not _passes(probe)]
    if missing:
        raise ShadowUnsupported(
            f"devlint cuda-sim cannot run on torch {torch.__version__}: missing "
            + ", ".join(missing)
        )


def _passes(probe) -> bool:
    try:
        return bool(probe())
    except Exception:
        return False


def _probe_class_tag() -> bool:
    """Tagging in place must work and ops on a tagged tensor must return plain tensors."""
    tensor = torch.ones(2)
    tag(tensor, 0)
    plain_result = type(tensor + 1) is torch.Tensor
    untag(tensor)
    return plain_result and type(tensor) is torch.Tensor


def _probe_mode_sees_properties() -> bool:
    seen = []

    class Probe(torch.overrides.TorchFunctionMode):
        def __torch_function__(self, func, types, args=(), kwargs=None):
            seen.append(func)
            return func(*args, **(kwargs or {}))

    with Probe():
        torch.ones(1).device  # noqa: B018 - the access is the probe
    return torch.Tensor.device.__get__ in seen


_PROBES = (
    ("the class tag", _probe_class_tag),
    ("TorchFunctionMode seeing Tensor.device", _probe_mode_sees_properties),
    ("torch._C._disabled_torch_function_impl", lambda: torch._C._disabled_torch_function_impl),
    ("torch._C._nn._parse_to", lambda: torch._C._nn._parse_to("cuda")[0].type == "cuda"),
    ("the optimizers' _foreach_supported_types lists",
     lambda: all(isinstance(types, list) for types in patches.foreach_type_lists())),
    ("torch.serialization.register_package", lambda: torch.serialization.register_package),
    ("torch.accelerator.current_stream", lambda: torch.accelerator.current_stream),
    ("torch.utils.weak.WeakTensorKeyDictionary", lambda: torch.utils.weak.WeakTensorKeyDictionary),
    ("a subclassable torch._C.Generator", lambda: patches.make_shadow_generator_class()),
)

if sys.version_info < (3, 9):  # pragma: no cover - pyproject requires 3.9
    raise ShadowUnsupported("devlint cuda-sim needs Python 3.9 or newer")
