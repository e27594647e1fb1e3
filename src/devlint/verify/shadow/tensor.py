"""The tag that says "this CPU tensor lives on cuda:N", and the few operations on it.

A shadow-CUDA tensor is an ordinary CPU tensor whose Python class was swapped in place for a
tagging subclass. Swapping in place (not wrapping) keeps autograd, optimizers and every kernel
native, with real values, so losses stay bit-identical to a CPU run. The class also says which
simulated GPU: one class per index (a torchrun rank's machine has several). Written against
torch 2.13.
"""
from __future__ import annotations

import contextlib

import torch

CPU = torch.device("cpu")
ACCELERATOR_TYPES = ("cuda", "mps")


class Accelerator:
    """The accelerators of the simulated machine: `count` GPUs of one kind, cuda unless the
    script's first placement asks for mps (an mps-or-cpu script on a Mac). A machine has one
    kind; placing tensors on the other kind fails as it would there. `current` is the device
    `torch.cuda.set_device` chose (0 until then), where `'cuda'` without an index goes. `tagged` counts
    tensors placed on a simulated device (a run that never placed one checked nothing), and
    `sites` says where the run first placed one on each device (the first sight of each
    index: under torchrun, a rank on another rank's GPU)."""

    def __init__(self) -> None:
        self.type = "cuda"  # noqa: DEV001 (the simulator says it is a GPU: intentional)
        self.count = 1
        self.current = 0
        self.home: int | None = None  # the rank's own GPU (LOCAL_RANK) under torchrun
        self.claimed = False
        self.tagged = 0
        self.sites: dict[int, dict | None] = {}
        self.locate = lambda: None  # the user line placing a tensor (set by install)
        self.devices = (torch.device("cuda", 0),)  # noqa: DEV001 - the simulated device itself

    @property
    def device(self) -> torch.device:
        """The current device, as `torch.device('cuda')` means it on a real GPU."""
        return self.devices[self.current]

    def configure(self, count: int, home: int | None = None) -> None:
        self.count, self.home = max(1, count), home
        self.current = 0  # as on a real machine: torchrun sets no device, set_device does
        self.devices = tuple(torch.device(self.type, i) for i in range(self.count))
        for index in range(self.count):
            classes_on(index)

    def claim(self, device_type: str) -> torch.device:
        if not self.claimed:
            self.claimed = True
            if device_type != self.type:
                self.type = device_type
                self.count = 1  # a Mac has one mps device
                self.devices = (torch.device(device_type, 0),)
                self.current = 0
        elif device_type != self.type:
            if device_type == "cuda":
                raise AssertionError("Torch not compiled with CUDA enabled")
            raise RuntimeError(f"PyTorch is not linked with support for {device_type} devices")
        return self.device

    def index_of(self, device: torch.device) -> int:
        """The GPU a device names: its index, or the current one for a bare `'cuda'`."""
        return self.current if device.index is None else device.index

    def first_use(self, index: int) -> None:
        self.sites[index] = self.locate()


ACCELERATOR = Accelerator()


class ShadowCudaTensor(torch.Tensor):
    """A CPU tensor that the shadow reports as living on cuda:`shadow_index`."""

    shadow_index = 0
    # Disabled so that the tag costs nothing per op: the one global mode does the work.
    __torch_function__ = torch._C._disabled_torch_function_impl

    def __reduce_ex__(self, proto):
        return reduce_as_plain(self, proto)


class ShadowCudaParameter(torch.nn.Parameter):
    """The Parameter twin: `isinstance(p, nn.Parameter)` must stay true after `model.to('cuda')`."""

    shadow_index = 0
    __torch_function__ = torch._C._disabled_torch_function_impl


# One tagging class per (plain class, GPU index); the index's classes subclass index 0's.
_TAG_OF = {(torch.Tensor, 0): ShadowCudaTensor, (torch.nn.Parameter, 0): ShadowCudaParameter}
_PLAIN_OF = {ShadowCudaTensor: torch.Tensor, ShadowCudaParameter: torch.nn.Parameter}
TAGGED_CLASSES = {ShadowCudaTensor, ShadowCudaParameter}


def classes_on(index: int) -> tuple[type, type]:
    """The tensor and Parameter classes of cuda:`index`, made on first use."""
    if (torch.Tensor, index) not in _TAG_OF:
        for plain, base in ((torch.Tensor, ShadowCudaTensor),
                            (torch.nn.Parameter, ShadowCudaParameter)):
            cls = type(f"{base.__name__}{index}", (base,), {
                "shadow_index": index, "__module__": __name__,
                "__torch_function__": torch._C._disabled_torch_function_impl})
            _TAG_OF[(plain, index)] = cls
            _PLAIN_OF[cls] = plain
            TAGGED_CLASSES.add(cls)
    return _TAG_OF[(torch.Tensor, index)], _TAG_OF[(torch.nn.Parameter, index)]


# Filled by the serialization patch: storages of tagged tensors met while pickling (pointer ->
# GPU index), so that the saved file records them at location 'cuda:N' as a real GPU run would.
pickled_cuda_storages: dict[int, int] = {}


def is_tagged(obj) -> bool:
    return obj.__class__ in TAGGED_CLASSES


def index_of(tensor) -> int | None:
    """The simulated GPU a tensor lives on; None for every other tensor."""
    cls = tensor.__class__
    return cls.shadow_index if cls in TAGGED_CLASSES else None


def tag(tensor, index: int) -> None:
    """Mark a plain tensor or Parameter (or a tagged one) as living on cuda:`index`; other
    subclasses are left alone."""
    cls = tensor.__class__
    tagged = _TAG_OF.get((_PLAIN_OF.get(cls, cls), index))
    if tagged is not None:
        tensor.__class__ = tagged
        ACCELERATOR.tagged += 1
        if index not in ACCELERATOR.sites:
            ACCELERATOR.first_use(index)


def untag(tensor) -> None:
    plain = _PLAIN_OF.get(tensor.__class__)
    if plain is not None:
        tensor.__class__ = plain


def tag_all(out, index: int) -> None:
    """Tag the tensors an op returned: one tensor, or a (named)tuple/list of them."""
    if isinstance(out, torch.Tensor):
        tag(out, index)
    elif isinstance(out, (tuple, list)):
        for item in out:
            if isinstance(item, torch.Tensor):
                tag(item, index)


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
    pickled_cuda_storages[tensor.untyped_storage().data_ptr()] = tensor.__class__.shadow_index
    with untagged(tensor):
        return tensor.__reduce_ex__(proto)


def shadow_device(tensor) -> torch.device:
    """`tensor.device` as a real GPU machine reports it."""
    index = index_of(tensor)
    return tensor.device if index is None else ACCELERATOR.devices[index]


def device_name(tensor) -> str:
    return str(shadow_device(tensor))


def legacy_type_name(tensor) -> str:
    """`tensor.type()` as a real GPU prints it: torch.cuda.FloatTensor for a tagged float32."""
    with torch._C.DisableTorchFunction():
        name = torch._C.TensorBase.type(tensor)
    if is_tagged(tensor):
        return name.replace("torch.", f"torch.{ACCELERATOR.type}.", 1)
    return name
