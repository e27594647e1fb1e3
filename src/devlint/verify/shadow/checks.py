"""Device checks as PyTorch makes them on a real GPU, with PyTorch's own messages.

Two families exist in torch 2.13:
- TensorIterator ops (elementwise, reductions, most losses): the common device is the first
  non-CPU operand; a CPU operand is accepted only when it is 0-dim. Message without suffix.
- Codegen-checked kernels (addmm, mm, bmm, cat, index_select, nll_loss): arguments are checked
  in schema order, 0-dim included; the first tensor sets the common device and the message
  ends with `(when checking argument for argument X in method wrapper_CUDA_Y)`.
Convolutions and RNNs have messages of their own. Two GPUs (cuda:0 and cuda:1, a torchrun rank
on another rank's GPU) mismatch as a GPU and the CPU do. Every checker returns a Mismatch or None.
"""
from __future__ import annotations

from dataclasses import dataclass

import torch

from devlint.verify.shadow.tensor import (
    ACCELERATOR, device_name, index_of, is_tagged, legacy_type_name,
)

SAME_DEVICE = "Expected all tensors to be on the same device, but found at least two devices, "


@dataclass(frozen=True)
class Mismatch:
    message: str
    cpu_tensor: torch.Tensor | None  # the misplaced one: on the CPU, or on another rank's GPU
    error: type = RuntimeError


def elementwise_mismatch(common, odd) -> Mismatch:
    """TensorIterator's error: `common` set the device, `odd` is elsewhere."""
    return Mismatch(f"{SAME_DEVICE}{device_name(common)} and {device_name(odd)}!",
                    _misplaced(common, odd))


def same_place(a, b) -> bool:
    return index_of(a) == index_of(b)


def _misplaced(a, b):
    """Of two tensors on different devices, the one to blame: the CPU one, else the one off
    the rank's own GPU, else the second."""
    if not is_tagged(a):
        return a
    if not is_tagged(b):
        return b
    return a if ACCELERATOR.home is not None and index_of(a) != ACCELERATOR.home else b


def check_in_schema_order(named, method: str) -> Mismatch | None:
    """`named` is [(argument name, tensor | None | list of tensors)] in schema order."""
    common = None
    for name, value in named:
        for tensor in value if isinstance(value, (list, tuple)) else (value,):
            if not isinstance(tensor, torch.Tensor):
                continue
            if common is None:
                common = tensor
            elif not same_place(common, tensor):
                return Mismatch(
                    f"{SAME_DEVICE}{device_name(common)} and {device_name(tensor)}! "
                    f"(when checking argument for argument {name} in method {method})",
                    _misplaced(common, tensor),
                )
    return None


def _arg(args, kwargs, index, name, default=None):
    if len(args) > index:
        return args[index]
    return kwargs.get(name, default)


def _mixed(tensors) -> bool:
    """On more than one device, one of them simulated (a CPU-only call is torch's business)."""
    places = {index_of(t) for t in tensors if isinstance(t, torch.Tensor)}
    return len(places) > 1


def check_linear(args, kwargs):
    """F.linear is addmm(bias, input, weight.t()) when it can fuse the bias, else mm + add_."""
    inp, weight = _arg(args, kwargs, 0, "input"), _arg(args, kwargs, 1, "weight")
    bias = _arg(args, kwargs, 2, "bias")
    if not _mixed((inp, weight, bias)):
        return None
    if bias is not None and (inp.dim() == 2 or (inp.dim() >= 3 and inp.is_contiguous())):
        return check_in_schema_order(
            [("self", bias), ("mat1", inp), ("mat2", weight)], "wrapper_CUDA_addmm"
        )
    found = check_in_schema_order([("self", inp), ("mat2", weight)], "wrapper_CUDA_mm")
    if found is None and bias is not None and bias.dim() > 0:
        found = elementwise_mismatch(inp, bias)
    return found


def check_mm(args, kwargs):
    return check_in_schema_order(
        [("self", args[0]), ("mat2", _arg(args, kwargs, 1, "mat2"))], "wrapper_CUDA_mm"
    )


def check_bmm(args, kwargs):
    return check_in_schema_order(
        [("self", args[0]), ("mat2", _arg(args, kwargs, 1, "mat2"))], "wrapper_CUDA_bmm"
    )


def check_addmm(args, kwargs):
    named = [("self", args[0]), ("mat1", _arg(args, kwargs, 1, "mat1")),
             ("mat2", _arg(args, kwargs, 2, "mat2"))]
    return check_in_schema_order(named, "wrapper_CUDA_addmm")


def check_matmul(args, kwargs):
    """matmul folds to mm for (1|2|N-d) @ 2-d and to bmm for N-d @ N-d (N >= 3)."""
    a, b = args[0], _arg(args, kwargs, 1, "other")
    if not _mixed((a, b)):
        return None
    if b.dim() == 2 and a.dim() >= 1:
        return check_in_schema_order([("self", a), ("mat2", b)], "wrapper_CUDA_mm")
    if a.dim() >= 3 and b.dim() >= 3:
        return check_in_schema_order([("self", a), ("mat2", b)], "wrapper_CUDA_bmm")
    return elementwise_mismatch(a, b)


def check_cat(args, kwargs):
    tensors = _arg(args, kwargs, 0, "tensors")
    return check_in_schema_order([("tensors", list(tensors))], "wrapper_CUDA_cat")


def check_embedding(args, kwargs):
    """embedding is weight.index_select(0, input.reshape(-1))."""
    indices, weight = _arg(args, kwargs, 0, "input"), _arg(args, kwargs, 1, "weight")
    return check_in_schema_order(
        [("self", weight), ("index", indices)], "wrapper_CUDA__index_select"
    )


def check_index_select(args, kwargs):
    return check_in_schema_order(
        [("self", args[0]), ("index", _arg(args, kwargs, 2, "index"))],
        "wrapper_CUDA__index_select",
    )


def check_nll(args, kwargs):
    """cross_entropy/nll_loss end in nll_loss_forward (1-2 d) or nll_loss2d_forward."""
    inp, target = _arg(args, kwargs, 0, "input"), _arg(args, kwargs, 1, "target")
    weight = _arg(args, kwargs, 2, "weight")
    if not _mixed((inp, target, weight)):
        return None
    if target.is_floating_point() and target.shape == inp.shape:
        # Class probabilities: cross_entropy computes it elementwise.
        present = [t for t in (inp, target, weight) if isinstance(t, torch.Tensor)]
        return elementwise_mismatch(present[0], next(t for t in present
                                                     if not same_place(t, present[0])))
    method = "wrapper_CUDA_nll_loss_forward" if inp.dim() <= 2 else (
        "wrapper_CUDA_nll_loss2d_forward")
    return check_in_schema_order([("self", inp), ("target", target), ("weight", weight)], method)


def check_conv(args, kwargs):
    """Convolutions compare tensor types: 'Input type (torch.FloatTensor) and weight type ...'."""
    inp, weight = _arg(args, kwargs, 0, "input"), _arg(args, kwargs, 1, "weight")
    bias = _arg(args, kwargs, 2, "bias")
    if not _mixed((inp, weight, bias)):
        return None
    for name, other in (("weight", weight), ("bias", bias)):
        if not isinstance(other, torch.Tensor) or same_place(other, inp):
            continue
        if is_tagged(other) and is_tagged(inp):  # two GPUs: cuDNN checks the weight's,
            if name == "bias":  # then adds the bias elementwise
                return elementwise_mismatch(inp, other)
            message = (f"Expected tensor for argument #1 'input' to have the same device as "
                       f"tensor for argument #2 'weight'; but device {index_of(inp)} does not "
                       f"equal {index_of(other)} (while checking arguments for "
                       f"cudnn_convolution)")
            return Mismatch(message, _misplaced(inp, other))
        message = (f"Input type ({legacy_type_name(inp)}) and {name} type "
                   f"({legacy_type_name(other)}) should be the same")
        if name == "weight" and not is_tagged(inp) and inp.dtype == torch.float32:
            # A float32 CPU input selects the mkldnn backend, whose check says more.
            message += " or input should be a MKLDNN tensor and weight is a dense tensor"
        return Mismatch(message, _misplaced(inp, other))
    return None


def check_rnn(args, kwargs):
    """_VF.lstm/gru/rnn_*: hidden states first, then parameters, against the input's device."""
    inp = args[0]
    # A packed sequence passes its integer batch_sizes (always on the CPU) second.
    packed = isinstance(args[1], torch.Tensor) and not args[1].is_floating_point()
    hidden, params = (args[2], args[3]) if packed else (args[1], args[2])
    for name, group in (("hidden", hidden), ("parameter", params)):
        for tensor in group if isinstance(group, (list, tuple)) else (group,):
            if isinstance(tensor, torch.Tensor) and not same_place(tensor, inp):
                return Mismatch(
                    f"Input and {name} tensors are not at the same device, found input tensor "
                    f"at {device_name(inp)} and {name} tensor at {device_name(tensor)}",
                    _misplaced(inp, tensor),
                )
    return None


def index_mismatch(self_tensor, index) -> Mismatch | None:
    """CPU indices into a cuda tensor are fine; indices on another device than the indexed
    tensor (cuda indices into a CPU tensor, cuda:1 into cuda:0) are not."""
    for item in index if isinstance(index, (tuple, list)) else (index,):
        if isinstance(item, torch.Tensor) and is_tagged(item) and not same_place(item, self_tensor):
            return Mismatch(
                f"indices should be either on cpu or on the same device as the indexed tensor "
                f"({device_name(self_tensor)})",
                _misplaced(self_tensor, item), IndexError,
            )
    return None


def grad_assignment_mismatch(tensor, grad) -> Mismatch | None:
    if not isinstance(grad, torch.Tensor) or same_place(grad, tensor):
        return None
    if is_tagged(grad) and is_tagged(tensor):
        return Mismatch(
            f"attempting to assign a gradient located on device with index '{index_of(grad)}' "
            f"to a tensor located on device with index '{index_of(tensor)}'. Please ensure "
            "that the gradient and the tensor are on the same device",
            _misplaced(tensor, grad),
        )
    return Mismatch(
        f"attempting to assign a gradient with device type '{_type_of(grad)}' to a tensor "
        f"with device type '{_type_of(tensor)}'. Please ensure that the gradient and the "
        "tensor are on the same device",
        _misplaced(tensor, grad),
    )


def _type_of(tensor) -> str:
    return ACCELERATOR.type if is_tagged(tensor) else tensor.device.type


def checkers_by_function() -> dict:
    """The table the mode consults before its generic elementwise rule."""
    F = torch.nn.functional
    T = torch.Tensor
    table = {
        F.linear: check_linear,
        torch.mm: check_mm, T.mm: check_mm,
        torch.bmm: check_bmm, T.bmm: check_bmm,
        torch.addmm: check_addmm, T.addmm: check_addmm,
        torch.matmul: check_matmul, T.matmul: check_matmul, T.__matmul__: check_matmul,
        torch.cat: check_cat, torch.concat: check_cat, torch.concatenate: check_cat,
        torch.stack: check_cat,
        F.embedding: check_embedding,
        torch.index_select: check_index_select, T.index_select: check_index_select,
        F.nll_loss: check_nll, F.cross_entropy: check_nll,
    }
    for conv in ("conv1d", "conv2d", "conv3d", "conv_transpose1d", "conv_transpose2d",
                 "conv_transpose3d"):
        table[getattr(torch, conv)] = check_conv
    for rnn in ("lstm", "gru", "rnn_tanh", "rnn_relu"):
        table[getattr(torch, rnn)] = check_rnn
    return table
