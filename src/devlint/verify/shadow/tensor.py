"""The tag that says "this CPU tensor lives on cuda:0", and the few operations on it.

A shadow-CUDA tensor is an ordinary CPU tensor whose Python class was swapped in place for a
tagging subclass. Swapping in place (not wrapping) keeps autograd, optimizers and every kernel
native, with real values, so losses stay bit-identical to a CPU run. Written against torch 2.13.
"""
from __future__ import annotations

import contextlib

import torch

CUDA0 = torch.device("cuda", 0)  # noqa: DEV001 - the simulated device itself
CPU = torch.device("cpu")
ACCELERATOR_TYPES = ("cuda", "mps")


class Accelerator:
    """The one accelerator of the simulated machine: cuda, unless the script's first placement
    asks for mps (an mps-or-cpu script on a Mac). A machine has one kind; placing tensors on
    the other kind fails as it would there. `tagged` counts tensors placed on it: a run that
    never placed one checked nothing."""

    def __init__(self) -> None:
        self.device = CUDA0
        self.claimed = False
        self.tagged = 0

    @property
    def type(self) -> str:
        return self.device.type

    def claim(self, device_type: str) -> torch.device:
        if not self.claimed:
            self.claimed = True
            self.device = torch.device(device_type, 0)
        elif device_type != self.device.type:
            if device_type == "cuda":
                raise AssertionError("Torch not compiled with CUDA enabled")
            raise RuntimeError(f"PyTorch is not linked with support for {device_type} devices")
        return self.device


ACCELERATOR = Accelerator()


class ShadowCudaTensor(torch.Tensor):
    """A CPU tensor that the shadow reports as living on cuda:0."""

    # Disabled so that the tag costs nothing per op: the one global mode does the work.
    __torch_function__ = torch._C._disabled_torch_function_impl

    def __reduce_ex__(self, proto):
        return reduce_as_plain(self, proto)


class ShadowCudaParameter(torch.nn.Parameter):
    """The Parameter twin: `isinstance(p, nn.Parameter)` must stay true after `model.to('cuda')`."""

    __torch_function__ = torch._C._disabled_torch_function_impl


_TAG_OF = {torch.Tensor: ShadowCudaTensor, torch.nn.Parameter: ShadowCudaParameter}
_PLAIN_OF = {ShadowCudaTensor: torch.Tensor, ShadowCudaParameter: torch.nn.Parameter}
TAGGED_CLASSES = (ShadowCudaTensor, ShadowCudaParameter)

# Filled by the serialization patch: storages of tagged tensors met while pickling, so that the
# saved file records them at location 'cuda:0' as a real GPU run would.
pickled_cuda_storages: set[int] = set()


def is_tagged(obj) -> bool:
    cls = obj.__class__
    return cls is ShadowCudaTensor or cls is ShadowCudaParameter


def tag(tensor) -> None:
    """Mark a plain tensor or Parameter as living on cuda:0 (other subclasses are left alone)."""
    tagged = _TAG_OF.get(tensor.__class__)
    if tagged is not None:
        tensor.__class__ = tagged
        ACCELERATOR.tagged += 1


def untag(tensor) -> None:
    plain = _PLAIN_OF.get(tensor.__class__)
    if plain is not None:
        tensor.__class__ = plain


def tag_all(out) -> None:
    """Tag the tensors an op returned: one tensor, or a (named)tuple/list of them."""
    if isinstance(out, torch.Tensor):
        tag(out)
    elif isinstance(out, (tuple, list)):
        for item in out:
            if isinstance(item, torch.Tensor):
                tag(item)


@contextlib.contextmanager
def untagged(tensor):
    """Let torch's own Python code see a plain tensor for a moment (repr, deepcopy, pickling
    test `type(self) is Tensor`), then put the tag back."""
    plain = _PLAIN_OF.get(tensor.__class__)
    if plain is None:
        yield tensor
        return
    tagged_class = tensor.__class__
    tensor.__class__ = plain
    try:
        yield tensor
    finally:
        tensor.__class__ = tagged_class


def reduce_as_plain(tensor, proto):
    """Pickle a tagged tensor as a plain one: `weights_only` loading accepts no foreign class."""
    pickled_cuda_storages.add(tensor.untyped_storage().data_ptr())
    with untagged(tensor):
        return tensor.__reduce_ex__(proto)


def shadow_device(tensor) -> torch.device:
    return ACCELERATOR.device if is_tagged(tensor) else tensor.device


def device_name(tensor) -> str:
    return str(ACCELERATOR.device) if is_tagged(tensor) else str(tensor.device)


def legacy_type_name(tensor) -> str:
    """`tensor.type()` as a real GPU prints it: torch.cuda.FloatTensor for a tagged float32."""
    with torch._C.DisableTorchFunction():
        name = torch._C.TensorBase.type(tensor)
    if is_tagged(tensor):
        return name.replace("torch.", f"torch.{ACCELERATOR.type}.", 1)
    return name
