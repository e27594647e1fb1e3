"""Patches that make torch believe CUDA devices exist (one, or one per torchrun rank), on a
CPU-only build (torch 2.13).

Each patched name gets its own function object: torch._dynamo (imported lazily by
optimizer.step) refuses two torch names bound to one object ("Duplicate torch object").
"""
from __future__ import annotations

import contextlib
import importlib
import itertools
import os
import time
import types

import torch

from devlint.verify.shadow.origin import OriginBook
from devlint.verify.shadow.tensor import (
    ACCELERATOR, ACCELERATOR_TYPES, CPU, TAGGED_CLASSES, index_of, is_tagged,
    legacy_type_name, pickled_cuda_storages, tag, untagged,
)

DEVICE_NAME = "devlint cuda-sim"
_GIB = 1024 ** 3
# What the run did that the report should say: torch.compile ran eagerly, nccl became gloo.
NOTES: list[str] = []
# Files torch.save wrote with tensors on the simulated device: made loadable on a CPU machine
# when the run ends (see make_saved_files_portable).
SAVED_ON_DEVICE: dict[str, int] = {}  # path -> st_mtime_ns of the save


def note(text: str) -> None:
    if text not in NOTES:
        NOTES.append(text)


class Patcher:
    """Sets attributes and remembers the originals (for uninstall in tests and for debugging)."""

    def __init__(self):
        self.originals: list[tuple[object, str, object]] = []
        self.undo_actions: list = []

    def set(self, owner, name: str, value) -> None:
        self.originals.append((owner, name, owner.__dict__.get(name, getattr(owner, name, None))))
        setattr(owner, name, value)

    def undo(self) -> None:
        for owner, name, original in reversed(self.originals):
            setattr(owner, name, original)
        self.originals.clear()
        for action in self.undo_actions:
            action()
        self.undo_actions.clear()


def _returning(value):
    """A fresh function object per patched name (see the module docstring)."""
    def patched(*args, **kwargs):
        return value
    return patched


def _doing_nothing():
    return _returning(None)


class ShadowEvent:
    """torch.cuda.Event with wall-clock timings: the shadow's timings mean nothing anyway."""

    def __init__(self, enable_timing=False, blocking=False, interprocess=False, external=False):
        self._recorded_at = None

    def record(self, stream=None):
        self._recorded_at = time.perf_counter()

    def wait(self, stream=None):
        pass

    def query(self):
        return True

    def synchronize(self):
        pass

    def elapsed_time(self, end_event):
        return (end_event._recorded_at - self._recorded_at) * 1000.0


class ShadowStream:
    def __init__(self, device=None, priority=0, **kwargs):
        self.device = _device(device)
        self.priority = priority

    def synchronize(self):
        pass

    def query(self):
        return True

    def is_capturing(self):
        return False

    def wait_stream(self, stream):
        pass

    def wait_event(self, event):
        pass

    def record_event(self, event=None):
        event = event or ShadowEvent()
        event.record(self)
        return event

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


class ShadowDeviceContext:
    """torch.cuda.device(i) / device_of(t): the current device for the block."""

    def __init__(self, device=None):
        self.idx = -1 if device is None or device == -1 else _device(device).index
        self.prev_idx = -1

    def __enter__(self):
        self.prev_idx = ACCELERATOR.current
        if self.idx != -1:
            set_device(self.idx)
        return self

    def __exit__(self, *exc):
        ACCELERATOR.current = self.prev_idx
        return False


def _device(device=None) -> torch.device:
    """A simulated GPU named as torch.cuda's functions take it (None: the current one)."""
    if device is None or device == -1:
        return ACCELERATOR.device
    if isinstance(device, int):
        return torch.device(ACCELERATOR.type, device)
    device = torch.device(device)
    return device if device.index is not None else ACCELERATOR.device


def set_device(device) -> None:
    """torch.cuda.set_device: `'cuda'` and later tensors without an index go there."""
    if device is None or device == -1:
        return
    index = _device(device).index
    if not 0 <= index < ACCELERATOR.count:
        raise RuntimeError("CUDA error: invalid device ordinal")
    ACCELERATOR.current = index


def _device_properties():
    return types.SimpleNamespace(
        name=DEVICE_NAME, major=9, minor=0, total_memory=80 * _GIB, multi_processor_count=132,
        is_integrated=False, is_multi_gpu_board=False, warp_size=32, L2_cache_size=50 * 1024 ** 2,
        uuid="devlint-cuda-sim",
    )


def patch_cuda(patcher: Patcher) -> None:
    cuda = torch.cuda
    constants = {
        "is_available": True, "is_initialized": True,
        "is_bf16_supported": True, "is_tf32_supported": True, "get_device_name": DEVICE_NAME,
        "get_device_capability": (9, 0), "get_arch_list": ["sm_90"],
        "is_current_stream_capturing": False, "memory_allocated": 0, "max_memory_allocated": 0,
        "memory_reserved": 0, "max_memory_reserved": 0, "memory_cached": 0,
        "max_memory_cached": 0, "mem_get_info": (80 * _GIB, 80 * _GIB), "memory_stats": {},
        "memory_summary": "devlint cuda-sim: no memory statistics", "initial_seed": 0,
    }
    for name, value in constants.items():
        patcher.set(cuda, name, _returning(value))
    patcher.set(cuda, "device_count", lambda: ACCELERATOR.count)
    patcher.set(cuda, "current_device", lambda: ACCELERATOR.current)
    patcher.set(cuda, "set_device", set_device)
    for name in ("synchronize", "empty_cache", "manual_seed", "manual_seed_all",
                 "seed", "seed_all", "reset_peak_memory_stats", "reset_max_memory_allocated",
                 "reset_max_memory_cached", "reset_accumulated_memory_stats", "ipc_collect",
                 "init", "set_rng_state", "set_rng_state_all", "set_per_process_memory_fraction",
                 "set_sync_debug_mode", "_lazy_init"):
        patcher.set(cuda, name, _doing_nothing())
    patcher.set(cuda, "get_device_properties", lambda device=None: _device_properties())
    patcher.set(cuda, "get_rng_state", lambda device="cuda": torch.zeros(16, dtype=torch.uint8))
    patcher.set(cuda, "get_rng_state_all",
                lambda: [torch.zeros(16, dtype=torch.uint8) for _ in range(ACCELERATOR.count)])
    patcher.set(cuda, "Event", ShadowEvent)
    patcher.set(cuda, "Stream", ShadowStream)
    patcher.set(cuda, "current_stream", lambda device=None: ShadowStream(device))
    patcher.set(cuda, "default_stream", lambda device=None: ShadowStream(device))
    patcher.set(cuda, "stream", lambda stream=None: contextlib.nullcontext(stream))
    patcher.set(cuda, "device", ShadowDeviceContext)
    patcher.set(cuda, "device_of", lambda tensor: ShadowDeviceContext(index_of(tensor)))
    # profiler annotations need the CUDA library: on the simulated GPU they annotate nothing
    nvtx = importlib.import_module("torch.cuda.nvtx")
    for name in ("range_push", "range_pop", "range_start"):
        patcher.set(nvtx, name, _returning(0))
    for name in ("mark", "range_end"):
        patcher.set(nvtx, name, _doing_nothing())
    patcher.set(nvtx, "range", lambda *args, **kwargs: contextlib.nullcontext())


# torch.cuda's legacy typed constructors; a CPU build has the classes but cannot build them
LEGACY_TYPES = ("FloatTensor", "DoubleTensor", "HalfTensor", "BFloat16Tensor", "LongTensor",
                "IntTensor", "ShortTensor", "CharTensor", "ByteTensor", "BoolTensor")


class _LegacyCudaType(type):
    """`torch.cuda.FloatTensor(2, 3)`, `torch.cuda.LongTensor([1, 2])`: the CPU type's
    constructor (sizes, a sequence, an array), then `.cuda()`, so the new tensor is on the
    current simulated GPU as a real one is; `isinstance(t, torch.cuda.FloatTensor)` holds for
    a float32 tensor there."""

    def __call__(cls, *args, **kwargs):
        return getattr(torch, cls.__name__)(*args, **kwargs).cuda()

    def __instancecheck__(cls, obj):
        return isinstance(obj, torch.Tensor) and is_tagged(obj) and (
            legacy_type_name(obj) == f"torch.{ACCELERATOR.type}.{cls.__name__}")


def legacy_cuda_type(name: str) -> type:
    dtype = getattr(torch, name).dtype
    return _LegacyCudaType(name, (), {"__module__": "torch.cuda", "dtype": dtype,
                                      "is_cuda": True, "is_sparse": False})


def patch_legacy_types(patcher: Patcher) -> None:
    for name in LEGACY_TYPES:
        patcher.set(torch.cuda, name, legacy_cuda_type(name))
    original = torch.set_default_tensor_type

    def set_default_tensor_type(t):
        """`torch.set_default_tensor_type(torch.cuda.FloatTensor)`: its dtype, and the
        simulated GPU as the default device (torch.set_default_device is patched)."""
        name = t if isinstance(t, str) else f"{t.__module__}.{t.__name__}"
        if not name.startswith("torch.cuda."):
            torch.set_default_device("cpu")
            return original(t)
        torch.set_default_dtype(getattr(torch, name.rsplit(".", 1)[1]).dtype)
        torch.set_default_device("cuda")
    patcher.set(torch, "set_default_tensor_type", set_default_tensor_type)


def patch_accelerator(patcher: Patcher) -> None:
    """DataLoader's pin_memory decision and Adam's step ask torch.accelerator (2.13)."""
    acc = torch.accelerator
    patcher.set(acc, "is_available", _returning(True))
    patcher.set(acc, "current_accelerator",
                lambda check_available=False: torch.device(ACCELERATOR.type))
    patcher.set(acc, "device_count", lambda: ACCELERATOR.count)
    for name in ("current_device_index", "current_device_idx"):
        patcher.set(acc, name, lambda: ACCELERATOR.current)
    for name in ("set_device_index", "set_device_idx"):
        patcher.set(acc, name, lambda device: set_device(device))
    for name in ("synchronize", "empty_cache"):
        patcher.set(acc, name, _doing_nothing())
    patcher.set(acc, "current_stream", lambda device=None: ShadowStream(device))
    if hasattr(acc, "device_index"):
        patcher.set(acc, "device_index", ShadowDeviceContext)
    # DDP copies inputs to its device_ids[0] on a side stream when they are on another GPU
    functions = importlib.import_module("torch.nn.parallel._functions")
    patcher.set(functions, "_get_stream", lambda device: ShadowStream(device))
    patch_comm(patcher)


def patch_comm(patcher: Patcher) -> None:
    """DataParallel scatters its inputs and gathers the gradients with torch._C's CUDA
    collectives, which a CPU build lacks: split and copy them as those do."""
    comm = importlib.import_module("torch.nn.parallel.comm")

    def scatter(tensor, devices=None, chunk_sizes=None, dim=0, streams=None, *, out=None):
        if out is not None:
            return tuple(o.copy_(c) for o, c in zip(out, tensor.split(
                [o.shape[dim] for o in out], dim)))
        devices = [_device(d) for d in devices]
        chunks = (tensor.chunk(len(devices), dim) if chunk_sizes is None
                  else tensor.split(list(chunk_sizes), dim))
        return tuple(c.contiguous().to(d) for c, d in zip(chunks, devices))

    def gather(tensors, dim=0, destination=None, *, out=None):
        if out is not None:
            return out.copy_(torch.cat([t.to(out.device) for t in tensors], dim))
        target = CPU if destination == -1 or destination == "cpu" else _device(destination)
        return torch.cat([t.to(target) for t in tensors], dim)

    patcher.set(comm, "scatter", scatter)
    patcher.set(comm, "gather", gather)


def patch_backends(patcher: Patcher) -> None:
    """The simulated accelerator also answers for mps: an mps-or-cpu script then places its
    tensors on it (the first placement decides which kind the machine has)."""
    patcher.set(torch.backends.mps, "is_available", _returning(True))
    patcher.set(torch.backends.mps, "is_built", _returning(True))
    patcher.set(torch.mps, "is_available", _returning(True))
    patcher.set(torch.mps, "device_count", _returning(1))
    for name in ("current_allocated_memory", "driver_allocated_memory", "recommended_max_memory"):
        patcher.set(torch.mps, name, _returning(0))
    for name in ("synchronize", "empty_cache", "manual_seed", "seed", "set_rng_state",
                 "set_per_process_memory_fraction"):
        patcher.set(torch.mps, name, _doing_nothing())
    patcher.set(torch.xpu, "is_available", _returning(False))
    # RNNs ask whether cuDNN accepts their (cuda) weights; a CPU build warns, then says no.
    patcher.set(torch.backends.cudnn, "is_acceptable", _returning(False))


def patch_module_to(patcher: Patcher) -> None:
    """`model.to(local_rank)`: nn.Module.to parses its arguments in Python, where an int makes
    torch.device(int), which asks the (absent) accelerator; on a GPU it names that GPU."""
    parse_to = torch._C._nn._parse_to

    def as_gpu(value):
        if isinstance(value, int) and not isinstance(value, bool):
            return torch.device(ACCELERATOR.type, value)
        return value

    def parse_to_simulated(*args, **kwargs):
        if args:
            args = (as_gpu(args[0]), *args[1:])
        if "device" in kwargs:
            kwargs = {**kwargs, "device": as_gpu(kwargs["device"])}
        return parse_to(*args, **kwargs)
    patcher.set(torch._C._nn, "_parse_to", parse_to_simulated)


def patch_pin_memory(patcher: Patcher) -> None:
    def pin_memory(self, device=None):
        return self  # pinning needs a driver; the copy it saves is invisible to a checker
    patcher.set(torch.Tensor, "pin_memory", pin_memory)
    original_record_stream = torch.Tensor.record_stream

    def record_stream(self, stream):
        # torch's argument parser refuses a simulated stream before any mode sees the call
        if isinstance(stream, ShadowStream):
            return None  # simulated streams run in order: nothing to keep alive
        return original_record_stream(self, stream)
    patcher.set(torch.Tensor, "record_stream", record_stream)


def patch_optimizers(patcher: Patcher) -> None:
    """Optimizers and clip_grad_norm_ take the foreach/fused path only for exact types."""
    for lists in foreach_type_lists():
        for cls in TAGGED_CLASSES:  # every simulated GPU's (configure() made them)
            if cls not in lists:
                lists.append(cls)


def foreach_type_lists() -> tuple[list, list]:
    # torch.optim deletes its `optimizer` attribute; the module itself is still importable.
    optimizer = importlib.import_module("torch.optim.optimizer")
    foreach_utils = importlib.import_module("torch.utils._foreach_utils")
    return optimizer._foreach_supported_types, foreach_utils._foreach_supported_types


def make_shadow_generator_class():
    base = torch._C.Generator

    class _GeneratorMeta(type(base)):
        # Generators made inside torch (torch.default_generator) must still pass
        # isinstance(g, torch.Generator).
        def __instancecheck__(cls, obj):
            return isinstance(obj, base)

    class ShadowGenerator(base, metaclass=_GeneratorMeta):
        """torch.Generator(device='cuda') is a CPU generator that says it is on cuda:0."""

        def __new__(cls, device="cpu"):
            generator = base.__new__(cls, "cpu")
            kind = torch.device(device).type
            generator._shadow_device = _device(device) if kind in ACCELERATOR_TYPES else CPU
            return generator

        def __init__(self, device="cpu"):
            pass

        @property
        def device(self):
            return self._shadow_device

    return ShadowGenerator


def patch_generator(patcher: Patcher) -> None:
    patcher.set(torch, "Generator", make_shadow_generator_class())


def patch_parameter(patcher: Patcher, book: OriginBook) -> None:
    """Parameter(cuda_tensor) must give a cuda Parameter (torch would return the tagged tensor
    itself, not a Parameter), and a Parameter keeps the creation site of its data."""
    original_new = torch.nn.Parameter.__new__

    def parameter_new(cls, data=None, requires_grad=True):
        if data is not None and is_tagged(data):
            with untagged(data):
                param = original_new(cls, data, requires_grad)
            tag(param, index_of(data))
            return param
        param = original_new(cls, data, requires_grad)
        if data is not None:
            book.copy(data, param)
        return param

    patcher.set(torch.nn.Parameter, "__new__", staticmethod(parameter_new))


def patch_variable(patcher: Patcher) -> None:
    """`Variable(cuda_tensor)` (old scripts) returns the data as a new tensor built in C, where
    no mode sees it: keep the device of what it wraps."""
    variable = torch.autograd.Variable
    original_new = variable.__new__

    def variable_new(cls, data=None, *args, **kwargs):
        out = original_new(cls, data, *args, **kwargs) if data is not None else original_new(
            cls, *args, **kwargs)
        if data is not None and is_tagged(data) and not is_tagged(out):
            tag(out, index_of(data))
        return out

    patcher.set(variable, "__new__", staticmethod(variable_new))


def patch_serialization(patcher: Patcher) -> None:
    """Saved tagged tensors are recorded at location 'cuda:N'; loading a 'cuda' location (saved
    so, or map_location='cuda:1') gives tensors tagged with that GPU, as on a real machine,
    where a checkpoint saved by rank 0 loads onto cuda:0 on every rank."""
    loaded_cuda_storages: dict[int, int] = {}  # storage pointer -> GPU index

    def tag_location(storage):
        index = pickled_cuda_storages.get(storage.data_ptr())
        if index is None or storage.device.type != "cpu":
            return None
        return "mps" if ACCELERATOR.type == "mps" else f"cuda:{index}"

    def restore_location(storage, location):
        if location.startswith(ACCELERATOR_TYPES):
            device = torch.device(location)
            check_location(device)
            loaded_cuda_storages[storage.data_ptr()] = ACCELERATOR.index_of(device)
            return storage
        return None

    torch.serialization.register_package(5, tag_location, restore_location)
    registry = torch.serialization._package_registry
    entry = next(item for item in registry if item[1] is tag_location)
    patcher.undo_actions.append(lambda: registry.remove(entry))
    original_save, original_load = torch.save, torch.load

    def save(obj, f, *args, **kwargs):
        pickled_cuda_storages.clear()
        try:
            result = original_save(obj, f, *args, **kwargs)
            if pickled_cuda_storages and isinstance(f, (str, os.PathLike)):
                path = os.path.abspath(f)
                SAVED_ON_DEVICE[path] = os.stat(path).st_mtime_ns
            return result
        finally:
            pickled_cuda_storages.clear()

    def load(*args, **kwargs):
        loaded_cuda_storages.clear()
        try:
            result = original_load(*args, **kwargs)
            if loaded_cuda_storages:
                with torch._C.DisableTorchFunction():
                    _tag_loaded(result, loaded_cuda_storages, set())
            return result
        finally:
            loaded_cuda_storages.clear()

    for owner in (torch, torch.serialization):
        patcher.set(owner, "save", save)
        patcher.set(owner, "load", load)
    global _original_save, _original_load
    _original_save, _original_load = original_save, original_load


_original_save = _original_load = None


def make_saved_files_portable(wanted=lambda path: True) -> list[str]:
    """Checkpoints saved during the run record the simulated device, as a GPU's would, so the
    run can load them back as a GPU run does. Once it ends, nothing that reads them has a
    simulated device: rewrite them with CPU locations so that a plain torch.load works (files
    kept by --keep-outputs, and saves outside the user's folders, which are not isolated)."""
    converted = []
    for path, mtime in SAVED_ON_DEVICE.items():
        if not wanted(path):
            continue
        try:
            if os.stat(path).st_mtime_ns != mtime:
                continue  # written again since, by something else
            with torch._C.DisableTorchFunction():
                obj = _original_load(path, map_location="cpu", weights_only=False)
                _original_save(obj, path)
        except Exception:  # an unpicklable object: the file stays as the run wrote it
            continue
        converted.append(path)
    return converted


def check_location(device: torch.device) -> None:
    """torch.load onto a GPU this machine lacks fails as torch's own check does."""
    if device.index is not None and device.index >= ACCELERATOR.count:
        raise RuntimeError(
            f"Attempting to deserialize object on CUDA device {device.index} but "
            f"torch.cuda.device_count() is {ACCELERATOR.count}. Please use torch.load with "
            f"map_location to map your storages to an existing device.")


def _tag_loaded(obj, cuda_storages: dict, seen: set) -> None:
    if isinstance(obj, torch.Tensor):
        index = cuda_storages.get(obj.untyped_storage().data_ptr())
        if index is not None:
            tag(obj, index)
        return
    if id(obj) in seen:
        return
    seen.add(id(obj))
    if isinstance(obj, dict):
        children = obj.values()
    elif isinstance(obj, (list, tuple, set)):
        children = obj
    elif isinstance(obj, torch.nn.Module):
        children = itertools.chain(obj.parameters(), obj.buffers())
    else:
        return
    for child in children:
        _tag_loaded(child, cuda_storages, seen)


def patch_default_device(patcher: Patcher, mode) -> None:
    """set_default_device('cuda') would make torch allocate on a CUDA backend it lacks: keep
    the CPU default and let the mode put factories on the shadow device instead."""
    original_set, original_get = torch.set_default_device, torch.get_default_device

    def set_default_device(device):
        device = torch.device(device) if device is not None else None
        on_gpu = device is not None and device.type in ACCELERATOR_TYPES
        mode.default_device = device if on_gpu else None
        if on_gpu:
            ACCELERATOR.claim(device.type)
        original_set(CPU if on_gpu else device)

    def get_default_device():
        device = mode.default_device
        if device is None:
            return original_get()
        return ACCELERATOR.devices[ACCELERATOR.index_of(device)]

    patcher.set(torch, "set_default_device", set_default_device)
    patcher.set(torch, "get_default_device", get_default_device)


def patch_tensorless_hot_calls(patcher: Patcher) -> None:
    """Calls with no tensor to check that a training step makes several times (grad mode
    switches, optimizer profiling ranges) take a slow Python path under any TorchFunctionMode;
    run them with torch functions disabled so the shadow costs nothing there."""
    original_set_grad = torch._C._set_grad_enabled

    def set_grad_enabled(mode):
        with torch._C.DisableTorchFunction():
            return original_set_grad(mode)

    patcher.set(torch._C, "_set_grad_enabled", set_grad_enabled)
    record_function = torch.autograd.profiler.record_function
    original_enter, original_exit = record_function.__enter__, record_function.__exit__

    def enter(self):
        with torch._C.DisableTorchFunction():
            return original_enter(self)

    def exit_(self, *exc_info):
        with torch._C.DisableTorchFunction():
            return original_exit(self, *exc_info)

    patcher.set(record_function, "__enter__", enter)
    patcher.set(record_function, "__exit__", exit_)


def patch_compile(patcher: Patcher) -> None:
    """Inductor generates kernels for the device it sees and cannot compile for a simulated
    one. Dynamo still captures the graph and runs it eagerly ("eager" backend), so placement
    is checked through torch.compile; mode= and options= belong to inductor and are dropped."""
    original = torch.compile

    def compile(model=None, **kwargs):
        if kwargs.get("disable"):
            return original(model, **kwargs)
        note("torch.compile: ran with dynamo's eager backend (inductor cannot compile for a "
             "simulated device)")
        kwargs = {k: v for k, v in kwargs.items() if k not in ("mode", "options")}
        kwargs["backend"] = "eager"
        return original(model, **kwargs)

    patcher.set(torch, "compile", compile)


def patch_autocast(patcher: Patcher) -> None:
    """On a CPU build autocast('cuda') disables itself, so an AMP dtype bug never shows. Run it
    as CPU autocast with the GPU's default float16: matmuls, linear and convolutions then give
    the half-precision outputs a GPU gives, and mixing them with float32 fails as it does
    there. binary_cross_entropy refuses autocast on CUDA (not on CPU): refuse it here too."""
    autocast = torch.amp.autocast_mode.autocast
    original_init, original_enter, original_exit = (
        autocast.__init__, autocast.__enter__, autocast.__exit__)
    depth = [0]

    def __init__(self, device_type, dtype=None, enabled=True, cache_enabled=None):
        self._devlint_gpu = device_type in ACCELERATOR_TYPES
        if self._devlint_gpu:
            device_type, dtype = "cpu", dtype or torch.float16
        original_init(self, device_type, dtype=dtype, enabled=enabled, cache_enabled=cache_enabled)

    def __enter__(self):
        if getattr(self, "_devlint_gpu", False) and self._enabled:
            depth[0] += 1
            note(f"autocast({ACCELERATOR.type!r}): ran as CPU autocast to {self.fast_dtype}, the "
                 "dtypes a GPU gives")
        return original_enter(self)

    def __exit__(self, *exc_info):
        if getattr(self, "_devlint_gpu", False) and self._enabled:
            depth[0] -= 1
        return original_exit(self, *exc_info)

    patcher.set(autocast, "__init__", __init__)
    patcher.set(autocast, "__enter__", __enter__)
    patcher.set(autocast, "__exit__", __exit__)
    functional = torch.nn.functional
    original_bce = functional.binary_cross_entropy

    def binary_cross_entropy(*args, **kwargs):
        if depth[0] and torch.is_autocast_enabled("cpu"):
            raise RuntimeError(_BCE_UNSAFE)
        return original_bce(*args, **kwargs)

    patcher.set(functional, "binary_cross_entropy", binary_cross_entropy)


_BCE_UNSAFE = (
    "torch.nn.functional.binary_cross_entropy and torch.nn.BCELoss are unsafe to autocast.\n"
    "Many models use a sigmoid layer right before the binary cross entropy layer.\n"
    "In this case, combine the two layers using torch.nn.functional.binary_cross_entropy_with_logits\n"
    "or torch.nn.BCEWithLogitsLoss.  binary_cross_entropy_with_logits and BCEWithLogits are\n"
    "safe to autocast.")
