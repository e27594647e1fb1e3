from __future__ import annotations

from typing import Iterator, Optional

from devlint.core.findings import Applicability, Fix, RawFinding
from devlint.lint.model import Model
from devlint.lint.model.torch_api import LEGACY_HOST_TYPES
from devlint.lint.model.observations import Meeting
from devlint.lint.rules.base import Rule
from devlint.lint.rules.batch_meetings import a_left_piece
from devlint.lint.rules.dev005_discarded_to import DiscardedTo
from devlint.lint.rules.fixes import add_keyword_fix, meeting_device
from devlint.lint.syntax import dotted

# Factories that take no `device=` (a TypeError), and the legacy typed constructors, which
# refuse any device but the CPU (`torch.LongTensor(x, device="cuda")` raises): the tensor is
# moved after, never made there.
NO_DEVICE_KEYWORD = frozenset({"from_numpy", "frombuffer", "from_dlpack"}) | LEGACY_HOST_TYPES


class CpuTensorInDeviceCode(Rule):
    code = "DEV006"
    name = "cpu-tensor-in-device-code"
    fix_kind = Applicability.SAFE
    summary = "A tensor made without `device=` meets device tensors in the loop or in `forward`."
    what = """
        Finds a tensor factory (`torch.zeros`, `ones`, `full`, `empty`, `randn`, `rand`, `randint`,
        `arange`, `eye`, `linspace`, `tensor`, ...) called without `device=` whose result then meets
        a tensor on the device: an operand of `+`, `*`, `@` with it, an argument of
        `torch.cat`/`torch.where`/`masked_fill` next to it, an argument of a model that was moved
        (also the example inputs of `torch.jit.trace(model, dummy)` and `torch.onnx.export`,
        which run it once),
        of a submodule inside `forward`, of a loss next to a device output, or a CPU tensor indexed
        by a device tensor (`schedule[t]`, `torch.eye(n)[labels]`), or a tensor handed to a
        collective (`dist.all_reduce(t)`) in a file whose process groups are NCCL's, which
        carries GPU tensors only. A custom `autograd.Function` runs `forward` at `Fn.apply(...)`
        and then `backward`, with gradients where forward's outputs are and the tensors forward
        saved (`ctx.save_for_backward(...)`). The factory may sit in a helper
        (`init_hidden`, `add_noise(x)`) the device code calls. Inside `forward` the module must be
        one this file moves to a device (or a Lightning module), or one nothing in this file
        builds (a library's module: whoever uses it moves it). A model or helper in another file
        of the project that this file moves or calls gets the finding in that file, with this
        file's call as where it was reached.
    """
    silent = """
        For a piece of a tensor the code moves piece by piece (a slice or a stack of slices of it
        moved, another left behind), or a field of an object the code moves field by field, that
        meets a model or a loss: a batch not moved, DEV002's or DEV004's. For 0-dim scalars
        (`torch.tensor(0.5)`: PyTorch lets a CPU scalar meet CUDA tensors;
        `torch.as_tensor(a)` of unknown data may be one, but not once `unsqueeze`, `flatten` or a
        `view` to a written shape gave it a dimension), for code only a training pass runs
        (`if self.training:`) reached from a pass after `model.eval()`,
        `*_like` and `x.new_*` factories, `device=x.device`, results moved with `.to(...)` before
        they are used, code under `with torch.device(...)`, and files that call
        `torch.set_default_device`. A `forward` that hands back a CPU tensor it made is reported
        only when no caller in the file is seen: where the file calls the module, what the call
        does with the answer decides (`self.pos_emb(n).to(x.device)` is right). Handed to a
        module, the tensor meets what the module holds, except where that proves nothing: the
        lengths and targets of a CTC loss (warp-ctc's `CTCLoss` too, a class of no library devlint
        reads, called by a loss's name), a tensor a module's `forward` only indexes with or reads
        as a number (`self.pe[:, :int(length)]`), lengths handed to a model whose `forward` devlint reads
        (that code says where they meet, and a meeting there is reported there), and a module of
        the project that holds numbers only (a loss of its own with a margin): its `forward`
        decides. A torch module with no parameter or buffer (`nn.Softmax`, `nn.ReLU`, pooling, a
        `Sequential` of them) holds nothing a move could place: it runs where its input is, and
        its answer is there too. A torchmetrics metric's predictions and targets meet its state; what else it
        takes (a retrieval metric's `indexes`, which it only sorts and indexes with) meets
        nothing.
    """
    why = """
        Factories allocate on the default device, the CPU, whatever device the surrounding
        code uses. On a GPU the first operation that mixes the new tensor with the model's
        activations fails with "Expected all tensors to be on the same device"; on a CPU the
        code runs, so the bug ships. In `forward` it is worse: the module works in every CPU
        unit test and fails only once someone calls `model.to('cuda')`.
    """
    bad = """
        import torch
        import torch.nn as nn

        class Encoder(nn.Module):
            def __init__(self):
                super().__init__()
                self.lstm = nn.LSTM(16, 32, batch_first=True)

            def forward(self, x):
                h0 = torch.zeros(1, x.size(0), 32)
                c0 = torch.zeros(1, x.size(0), 32)
                return self.lstm(x, (h0, c0))

        device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
        model = Encoder().to(device)
    """
    good = """
        import torch
        import torch.nn as nn

        class Encoder(nn.Module):
            def __init__(self):
                super().__init__()
                self.lstm = nn.LSTM(16, 32, batch_first=True)

            def forward(self, x):
                h0 = torch.zeros(1, x.size(0), 32, device=x.device)
                c0 = torch.zeros(1, x.size(0), 32, device=x.device)
                return self.lstm(x, (h0, c0))

        device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
        model = Encoder().to(device)
    """
    fix = """
        Make the tensor where it is used: `device=x.device` in `forward` (the input's device),
        `device=device` in the loop (a safe fix, offered when such a device is in reach).
    """

    def check(self, model: Model) -> Iterator[RawFinding]:
        reported: set[int] = set()
        # A tensor whose move was thrown away (`self.probs.to(device)` on a line of its own) is
        # DEV005's finding: its meetings with the device are that one root cause, not another.
        discarded = {id(move.before.node) for move in model.obs.transfers
                     if not move.kept and DiscardedTo.copies(move)}
        for meeting in model.obs.meetings:
            factory = meeting.host.value.node
            if meeting.host.value.why != "factory" or id(factory) in reported or \
                    id(factory) in discarded:
                continue
            if a_left_piece(meeting, model):
                continue  # a batch cut from data the code moves piece by piece: DEV002/DEV004
            if not meeting.where.accel or meeting.where.expect_raise or meeting.device.value.assumed:
                continue
            if type(factory).__name__ != "Call":
                continue
            reported.add(id(factory))
            device = self.device_for(meeting, model.bound_at(factory))
            keyword = (dotted(factory.func) or "").rsplit(".", 1)[-1] not in NO_DEVICE_KEYWORD
            message = (
                f"`{dotted(factory.func)}(...)` makes this tensor on the CPU, but it meets "
                f"{self.other_phrase(meeting)} on line {{related_line}}; "
                + ("move it to their device (`.to(...)`)" if not keyword else
                   f"create it with `device={device}`" if device else
                   "create it on their device (`device=`)")
            )
            if not keyword:
                device = None  # `torch.from_numpy(a, device=...)` is a TypeError: no fix
            yield self.finding(
                factory, message, related_node=meeting.node,
                related_label="meets device tensors here", fix=self.fix_for(factory, device),
            )

    @staticmethod
    def device_for(meeting: Meeting, bound: frozenset) -> Optional[str]:
        """In `forward`, the device of its first input (`x.device`): where the module runs,
        whatever moved it. Elsewhere, the device the other side was moved to."""
        function = meeting.where.function
        if function is not None and function.name == "forward" and len(function.params) > 1:
            first, kind, _, annotation = function.params[1][:4]
            if first in bound and kind == "positional" and annotation in (None, "torch.Tensor"):
                return f"{first}.device"  # not `arr.device` of `forward(self, arr: np.ndarray)`
        return meeting_device(meeting, bound)

    @staticmethod
    def other_phrase(meeting: Meeting) -> str:
        value = meeting.device.value
        spelled = dotted(meeting.device.node) if meeting.device.node is not None else None
        if getattr(value, "why", "") == "input" and spelled:
            function = meeting.where.function
            if function is not None and function.name == "__call__":
                return f"`{spelled}`, which `generate` hands over on the model's device"
            return f"`{spelled}`, an input of `forward` on the module's device"
        if meeting.kind == "model" and meeting.callee:
            return f"`{meeting.callee}`, which runs on the device"
        return "tensors on the device"

    @staticmethod
    def fix_for(factory, device: Optional[str]) -> Optional[Fix]:
        if device is None:
            return None
        return add_keyword_fix(factory, f"device={device}", f"create the tensor on `{device}`")
