"""The one global TorchFunctionMode that makes tagged CPU tensors behave as cuda:N tensors.

Every Python-level torch call passes through `ShadowMode.__torch_function__` (property gets and
sets included). Most calls take the generic path: check devices as TensorIterator does, run the
CPU kernel, tag the outputs when an input was on cuda. A short table of calls that move, show
or describe tensors gets a handler of its own. Written against torch 2.13.
"""
from __future__ import annotations

import re
import types
import weakref

import torch
from torch.overrides import TorchFunctionMode
from torch.utils._device import _device_constructors

from devlint.verify.shadow.checks import (
    Mismatch, checkers_by_function, elementwise_mismatch, grad_assignment_mismatch,
    index_mismatch,
)
from devlint.verify.shadow.origin import OriginBook
from devlint.verify.shadow.tensor import (
    ACCELERATOR, ACCELERATOR_TYPES, CPU, TAGGED_CLASSES, index_of, is_tagged, legacy_type_name,
    shadow_device, tag, tag_all, untag, untagged,
)

CUDA = torch.device("cuda")  # noqa: DEV001 (intentional: the simulated GPU, as `.cuda()` means it)
_TO = torch._C.TensorBase.to  # the C method, never a recorder's wrapper around it
_NUMPY_ON_DEVICE = ("can't convert {} device type tensor to numpy. Use Tensor.cpu() to copy "
                    "the tensor to host memory first.")
_FIRST_SUFFIX = re.compile(r",\s*[a-z_]+=")
_TENSOR_VALUED_PROPERTIES = frozenset({"grad", "data", "T", "mT", "H", "mH", "real", "imag",
                                       "_base"})


def as_device(device) -> torch.device:
    if isinstance(device, torch.device):
        return device
    if isinstance(device, int):  # torch.device(0) asks the (absent) accelerator: don't
        return torch.device("cuda", device)  # noqa: DEV001 (the simulated GPU of that index)
    return torch.device(device)


def check_ordinal(device: torch.device) -> None:
    """The shadow has as many GPUs as `device_count()` says (one, or one per torchrun rank);
    placing a tensor on one claims the simulated machine's kind (cuda or mps)."""
    if device.type in ACCELERATOR_TYPES:
        if device.index is not None and not 0 <= device.index < ACCELERATOR.count:
            raise RuntimeError("CUDA error: invalid device ordinal")
        ACCELERATOR.claim(device.type)


def scan(args, kwargs):
    """(first cuda tensor, a cuda tensor on another GPU than that one, first CPU tensor that
    is not 0-dim) over arguments, one level deep."""
    first = other = cpu = None
    for group in (args, kwargs.values()) if kwargs else (args,):
        for arg in group:
            for item in arg if isinstance(arg, (list, tuple)) else (arg,):
                cls = item.__class__
                if cls in TAGGED_CLASSES:
                    if first is None:
                        first = item
                    elif other is None and cls.shadow_index != first.__class__.shadow_index:
                        other = item
                elif cpu is None and isinstance(item, torch.Tensor) and item.dim() and item.is_cpu:
                    cpu = item
    return first, other, cpu


def with_device_suffix(text: str, device: torch.device) -> str:
    """Insert `device='cuda:0'` where torch puts it: the first suffix after the values."""
    match = _FIRST_SUFFIX.search(text)
    at = match.start() if match else text.rindex(")")
    return f"{text[:at]}, device='{device}'{text[at:]}"


class ShadowMode(TorchFunctionMode):
    def __init__(self, book: OriginBook):
        super().__init__()
        self.book = book
        self.checkers = checkers_by_function()
        self.by_name = self._handlers_by_name()
        self.handlers = self._initial_handlers()
        # torch.set_default_device('cuda'), as the patch in shadow_patches records it.
        self.default_device: torch.device | None = None
        self.constructors = _device_constructors()

    # -- dispatch ------------------------------------------------------------------------------
    def __torch_function__(self, func, arg_types, args=(), kwargs=None):
        try:
            handler = self.handlers.get(func)
        except TypeError:  # an unhashable callable: nothing special about it
            handler = self.run_generic
        if handler is None:
            handler = self._classify(func)
        return handler(func, args, kwargs or {})

    def _handlers_by_name(self) -> dict:
        return {
            "to": self.run_to, "cuda": self.run_cuda, "cpu": self.run_cpu,
            "type": self.run_type, "type_as": self.run_type_as,
            "numpy": self.run_numpy, "__array__": self.run_numpy,
            "__repr__": self.run_repr, "__format__": self.run_format,
            "__deepcopy__": self.run_deepcopy, "__iter__": self.run_iter,
            "__getitem__": self.run_getitem, "__setitem__": self.run_setitem,
            "index_put_": self.run_index_put, "index_put": self.run_index_put,
            "register_hook": self.run_register_hook, "get_device": self.run_get_device,
            "backward": self.run_unchecked, "copy_": self.run_unchecked,
            "expand_as": self.run_unchecked, "view_as": self.run_unchecked,
            "reshape_as": self.run_unchecked,
        }

    def _initial_handlers(self) -> dict:
        handlers = {func: self.run_checked for func in self.checkers}
        for name in self.by_name:
            handlers.update(self._current_methods(name))
        tensor = torch.Tensor
        handlers.update({
            tensor.device.__get__: self.get_device_property,
            tensor.is_cuda.__get__: self.get_is_cuda,
            tensor.is_mps.__get__: self.get_is_mps,
            tensor.is_cpu.__get__: self.get_is_cpu,
            tensor.data.__set__: self.set_data,
            tensor.grad.__set__: self.set_grad,
            torch.autograd.grad: self.run_autograd_grad,
            torch.autograd.backward: self.run_unchecked,
            torch.broadcast_tensors: self.run_broadcast,
            torch._pack_padded_sequence: self.run_first_output_follows_input,
            torch._pad_packed_sequence: self.run_first_output_follows_input,
            torch._has_compatible_shallow_copy_type: self.run_unchecked,
            torch.result_type: self.run_unchecked,
            torch.device: self.run_device,
        })
        return handlers

    def run_device(self, func, args, kwargs):
        """`torch.device(0)` names GPU 0 (DataParallel's scatter makes its devices so); a CPU
        build asks its absent accelerator instead."""
        if len(args) == 1 and not kwargs and isinstance(args[0], int) and not isinstance(
                args[0], bool):
            return as_device(args[0])
        return func(*args, **kwargs)

    def _current_methods(self, name: str) -> dict:
        found = {}
        for owner in (torch.Tensor, torch._C.TensorBase):
            method = getattr(owner, name, None)
            if method is not None:
                found[method] = self.by_name[name]
        return found

    def _classify(self, func):
        """A function seen for the first time: maybe a wrapper installed on torch.Tensor after
        install() (the recorder's Tensor.to), which must keep the shadow's meaning."""
        handler = self._getter_handler(func) or self.run_generic
        for name, candidate in self.by_name.items():
            if getattr(torch.Tensor, name, None) is func:
                handler = candidate
                break
        self.handlers[func] = handler
        return handler

    def _getter_handler(self, func):
        """Property reads are most of the calls an optimizer makes (p.grad): keep them cheap."""
        descriptor = getattr(func, "__self__", None)
        if getattr(func, "__name__", None) != "__get__" or not isinstance(
                descriptor, types.GetSetDescriptorType):
            return None
        if descriptor.__name__ in _TENSOR_VALUED_PROPERTIES:
            return self.get_tensor_property
        return self.get_plain_property

    # -- errors --------------------------------------------------------------------------------
    def raise_if(self, mismatch: Mismatch | None) -> None:
        if mismatch is not None:
            raise self.error(mismatch)

    def error(self, mismatch: Mismatch) -> Exception:
        misplaced = mismatch.cpu_tensor
        site = self.book.site_of(misplaced) if misplaced is not None else None
        message = mismatch.message
        origin = None
        if site is not None:
            where = str(shadow_device(misplaced))  # cpu, or another rank's GPU
            message += (f"\nThe {where} tensor was created at {site.path}:{site.line} "
                        f"in {site.function}.")
            origin = dict(site.as_dict(), device=where)
        exc = mismatch.error(message)
        exc.devlint_cpu_origin = origin
        return exc

    # -- the generic path ----------------------------------------------------------------------
    def run_generic(self, func, args, kwargs):
        if (self.default_device is not None and func in self.constructors
                and kwargs.get("device") is None):
            return self.run_with_device(func, args, dict(kwargs, device=self.default_device))
        if kwargs:
            if kwargs.get("device") is not None:
                return self.run_with_device(func, args, kwargs)
            if kwargs.get("pin_memory"):
                kwargs = dict(kwargs, pin_memory=False)  # a CPU build cannot pin; GPU-valid
        first, other, cpu = scan(args, kwargs)
        if first is None:
            return self._call_and_tag(func, args, kwargs, None)
        if other is not None or cpu is not None:
            raise self.error(elementwise_mismatch(first, other if other is not None else cpu))
        return self._call_and_tag(func, args, kwargs, first.__class__.shadow_index)

    def run_checked(self, func, args, kwargs):
        self.raise_if(self.checkers[func](args, kwargs))
        first = scan(args, kwargs)[0]
        return self._call_and_tag(func, args, kwargs, None if first is None else index_of(first))

    def run_unchecked(self, func, args, kwargs):
        """Calls a GPU accepts across devices (copy_, backward, view_as): result follows self."""
        return self._call_and_tag(func, args, kwargs, index_of(args[0]) if args else None)

    def _call_and_tag(self, func, args, kwargs, index):
        out = func(*args, **kwargs)
        if out is None or (args and out is args[0]):
            return out  # in place: self keeps its own device
        self._place(out, index)
        return out

    def _place(self, out, index: int | None) -> None:
        """A new result: tag it with its GPU; remember where it was made when it lives where
        the run's own tensors should not (the CPU; under torchrun, another rank's GPU)."""
        if index is None:
            self.book.record(out)
            return
        tag_all(out, index)
        if ACCELERATOR.home is not None and index != ACCELERATOR.home:
            self.book.record(out)

    def run_with_device(self, func, args, kwargs):
        """Factories, *_like, new_* with an explicit device=: the device decides, not inputs."""
        target = as_device(kwargs["device"])
        if target.type in ACCELERATOR_TYPES:
            check_ordinal(target)
            index = ACCELERATOR.index_of(target)
            options = dict(kwargs, device=CPU)
            if options.get("pin_memory"):
                options["pin_memory"] = False  # a CPU build cannot pin
            out = func(*args, **options)
            if isinstance(out, torch.Tensor) and any(out is arg for arg in args):
                out = out.clone()  # as_tensor(cpu_t, device='cuda') is a copy on a real GPU
            self._place(out, index)
            return out
        out = func(*args, **kwargs)
        if is_tagged(out):
            out = _TO(out, CPU, copy=True)  # as_tensor(cuda_t, device='cpu') copies too
        self.book.record(out)
        return out

    # -- moving tensors ------------------------------------------------------------------------
    def move(self, tensor, device, dtype=None, non_blocking=False, copy=False,
             memory_format=None):
        """`.to()` semantics: a real copy when the device changes, tag on the copy only."""
        source = index_of(tensor)  # None: on the CPU
        if device is None:
            target = source
        elif device.type in ACCELERATOR_TYPES:
            check_ordinal(device)
            target = ACCELERATOR.index_of(device)
        elif device.type == "cpu":
            target = None
        else:  # meta and friends: torch's business
            return _TO(tensor, device, dtype, non_blocking=non_blocking, copy=copy)
        options = {"non_blocking": non_blocking, "copy": copy or source != target}
        if memory_format is not None:
            options["memory_format"] = memory_format
        out = _TO(tensor, CPU if tensor.is_cpu else None, dtype, **options)
        if out is not tensor:
            self._place(out, target)
        return out

    def run_to(self, func, args, kwargs):
        tensor, rest = args[0], args[1:]
        if rest and isinstance(rest[0], torch.Tensor):  # .to(other): other's shadow device
            other = rest[0]
            non_blocking = rest[1] if len(rest) > 1 else kwargs.get("non_blocking", False)
            copy = rest[2] if len(rest) > 2 else kwargs.get("copy", False)
            return self.move(tensor, shadow_device(other), other.dtype, non_blocking, copy,
                             kwargs.get("memory_format"))
        options = {k: v for k, v in kwargs.items() if k != "copy"}  # _parse_to rejects copy
        if isinstance(options.get("device"), int):
            options["device"] = as_device(options["device"])
        if rest and isinstance(rest[0], int) and not isinstance(rest[0], bool):
            rest = (as_device(rest[0]), *rest[1:])  # .to(1): torch.device(1) asks the accelerator
        copy_at = 2 if rest and isinstance(rest[0], torch.dtype) else 3
        copy = rest[copy_at] if len(rest) > copy_at else kwargs.get("copy", False)
        device, dtype, non_blocking, memory_format = torch._C._nn._parse_to(
            *rest[:copy_at], **options)
        return self.move(tensor, device, dtype, non_blocking, copy, memory_format)

    def run_cuda(self, func, args, kwargs):
        device = args[1] if len(args) > 1 else kwargs.get("device")
        target = CUDA if device is None else as_device(device)
        non_blocking = args[2] if len(args) > 2 else kwargs.get("non_blocking", False)
        return self.move(args[0], target, non_blocking=non_blocking,
                         memory_format=kwargs.get("memory_format"))

    def run_cpu(self, func, args, kwargs):
        return self.move(args[0], CPU, memory_format=kwargs.get("memory_format"))

    def run_type(self, func, args, kwargs):
        tensor = args[0]
        wanted = args[1] if len(args) > 1 else kwargs.get("dtype")
        if wanted is None:
            return legacy_type_name(tensor)
        if isinstance(wanted, torch.dtype):
            return self.move(tensor, None, wanted)
        name = wanted if isinstance(wanted, str) else f"{wanted.__module__}.{wanted.__name__}"
        kind = next((t for t in ACCELERATOR_TYPES if f".{t}." in name), None)
        dtype = torch._C.TensorBase.type(torch.empty(0), name.replace(f".{kind}.", ".")).dtype
        return self.move(tensor, torch.device(kind) if kind else CPU, dtype)

    def run_type_as(self, func, args, kwargs):
        other = args[1] if len(args) > 1 else kwargs["other"]
        return self.move(args[0], shadow_device(other), other.dtype)

    # -- describing tensors --------------------------------------------------------------------
    def get_device_property(self, func, args, kwargs):
        index = index_of(args[0])
        return func(*args) if index is None else ACCELERATOR.devices[index]

    def get_tensor_property(self, func, args, kwargs):
        """`.grad`, `.data`, `.T`: a view or companion that lives where its tensor lives."""
        out = func(*args)
        index = index_of(args[0])
        if out is not None and index is not None:
            tag(out, index)
        return out

    def get_plain_property(self, func, args, kwargs):
        return func(*args)

    def get_is_cuda(self, func, args, kwargs):
        return ACCELERATOR.type == "cuda" if is_tagged(args[0]) else func(*args)

    def get_is_mps(self, func, args, kwargs):
        return ACCELERATOR.type == "mps" if is_tagged(args[0]) else func(*args)

    def get_is_cpu(self, func, args, kwargs):
        return False if is_tagged(args[0]) else func(*args)

    def run_get_device(self, func, args, kwargs):
        index = index_of(args[0])
        return func(*args, **kwargs) if index is None else index

    def run_numpy(self, func, args, kwargs):
        if is_tagged(args[0]):
            raise TypeError(_NUMPY_ON_DEVICE.format(shadow_device(args[0])))
        return func(*args, **kwargs)

    def run_repr(self, func, args, kwargs):
        tensor = args[0]
        if not is_tagged(tensor):
            return func(*args, **kwargs)
        device = shadow_device(tensor)
        with untagged(tensor):
            return with_device_suffix(func(tensor, **kwargs), device)

    def run_format(self, func, args, kwargs):
        """`Tensor.__format__` only formats 0-dim tensors whose type is exactly Tensor."""
        tensor, spec = args[0], args[1]
        if not is_tagged(tensor):
            return func(*args, **kwargs)
        if tensor.dim() == 0:
            return tensor.detach().item().__format__(spec)
        if spec == "":
            return self.run_repr(torch.Tensor.__repr__, (tensor,), {})
        raise TypeError("unsupported format string passed to Tensor.__format__")

    def run_deepcopy(self, func, args, kwargs):
        tensor = args[0]
        if not is_tagged(tensor):
            return func(*args, **kwargs)
        index = index_of(tensor)
        with untagged(tensor):  # __deepcopy__ insists clone() keeps type(self)
            out = func(*args, **kwargs)
        tag(out, index)
        return out

    def run_iter(self, func, args, kwargs):
        tensor = args[0]
        if not is_tagged(tensor) or tensor.dim() == 0:
            return func(*args, **kwargs)
        rows = tensor.unbind(0)
        tag_all(rows, index_of(tensor))
        return iter(rows)

    # -- indexing ------------------------------------------------------------------------------
    def run_getitem(self, func, args, kwargs):
        self.raise_if(index_mismatch(args[0], args[1]))
        return self._call_and_tag(func, args, kwargs, index_of(args[0]))

    def run_setitem(self, func, args, kwargs):
        self.raise_if(index_mismatch(args[0], args[1]))
        return func(*args, **kwargs)

    def run_index_put(self, func, args, kwargs):
        return self.run_getitem(func, args, kwargs)

    def run_first_output_follows_input(self, func, args, kwargs):
        """Packed sequences: lengths and batch_sizes stay on the CPU, as torch requires."""
        out = func(*args, **kwargs)
        if is_tagged(args[0]):
            tag(out[0], index_of(args[0]))
        return out

    def run_broadcast(self, func, args, kwargs):
        tensors = args[0] if len(args) == 1 and isinstance(args[0], (list, tuple)) else args
        out = func(*args, **kwargs)
        for source, result in zip(tensors, out):
            if is_tagged(source):
                tag(result, index_of(source))
        return out

    # -- autograd ------------------------------------------------------------------------------
    def set_data(self, func, args, kwargs):
        """`param.data = moved` is how Module._apply moves parameters: the tag follows the data,
        and the Parameter object (held by optimizers built earlier) stays the same."""
        tensor, value = args
        func(tensor, value)
        index = index_of(value)
        if index is not None:
            tag(tensor, index)
        else:
            untag(tensor)

    def set_grad(self, func, args, kwargs):
        self.raise_if(grad_assignment_mismatch(args[0], args[1]))
        return func(*args, **kwargs)

    def run_autograd_grad(self, func, args, kwargs):
        """Each gradient lives where its input lives."""
        inputs = args[1] if len(args) > 1 else kwargs["inputs"]
        inputs = (inputs,) if isinstance(inputs, torch.Tensor) else tuple(inputs)
        out = func(*args, **kwargs)
        for source, grad in zip(inputs, out):
            if grad is not None and is_tagged(source):
                tag(grad, index_of(source))
        return out

    def run_register_hook(self, func, args, kwargs):
        """Hooks get gradients straight from C++, untagged: tag them as the tensor's device."""
        tensor, hook = args[0], args[1] if len(args) > 1 else kwargs["hook"]
        owner = weakref.ref(tensor)

        def hook_seeing_device(grad):
            holder = owner()
            if holder is not None and is_tagged(holder) and grad is not None:
                tag(grad, index_of(holder))
            return hook(grad)

        return func(tensor, hook_seeing_device)
