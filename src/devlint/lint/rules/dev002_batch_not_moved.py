from __future__ import annotations

from typing import Iterator

from devlint.core.findings import Applicability, RawFinding
from devlint.lint.model import Model
from devlint.lint.rules.base import Rule
from devlint.lint.rules.batch_meetings import device_phrase, related_node, siblings, unmoved_batches
from devlint.lint.rules.fixes import batch_fix


class BatchNotMoved(Rule):
    code = "DEV002"
    name = "batch-not-moved"
    fix_kind = Applicability.SAFE
    summary = "A batch from a data loader reaches a model on the device without being moved."
    what = """
        Finds a batch passed to a model on the device without being moved on every path from where
        the loader yields it. A batch is what a data loader yields (`for x, y in loader`,
        `enumerate(loader)`, `tqdm(loader)`, `next(iter(loader))` in a `while` loop, `x, y = batch`,
        `batch[0]`, `batch["input_ids"]`, `batch.pop("labels")`, `model(**batch)`, `Variable(x)`),
        followed through helpers, methods and other functions of the file. A model is on the device
        when the code moved it (`model.to(device)`, `.cuda()`, `self.model` set up in `__init__`),
        when it was handed tensors the code moved, or, by convention, when it is a `model`
        parameter of a function that takes `device` (not of a constructor, which only stores the
        model and the device it is given). A loader the file did not build is taken to
        yield CPU batches when it is named like one (`train_loader`), unless the file uses
        accelerate or Fabric, or a call devlint cannot read made it and was handed the device or
        data already on it (`corpus.get_iterator("valid", device=device)`): where such an
        iterator puts its batches is unknown, and unknown stays silent.
    """
    silent = """
        When the batch is moved in that iteration (`x = x.to(device)`, inline in the call, a dict
        comprehension over the batch, a helper that takes `device`, `x.to(DEVICE)` of a name from
        a module devlint cannot read: a move, unless the name says dtype), when the batch object moves in
        place (HF `BatchEncoding`), for a field the `collate_fn` builds as a list or a number (not
        a tensor), when a `collate_fn` or a device-loader wrapper moves it or the dataset was
        moved whole before the loader, under `accelerator.prepare`, in Lightning's
        `training_step`, for `nn.DataParallel` and `DistributedDataParallel` with `device_ids`
        (they move the inputs themselves; also a model a helper may have wrapped in one), for
        the lists of graphs PyG's `DataListLoader` yields (its `DataParallel` scatters them), for
        arguments the model's `forward` uses only to index or mask (task labels picking heads: a
        CPU index picks from a CUDA tensor), for arguments a model passes on as CPU-only values
        (`pack_padded_sequence` lengths), when a discarded `.to()` left the batch behind (DEV005
        reports that), for a diffusion pipeline (`...Pipeline.from_pretrained`, which places its
        inputs itself) and a project's class with its own `__call__` (it decides where its
        arguments go), and in CPU-only scripts whose model never moves.
    """
    why = """
        A DataLoader yields CPU tensors every iteration. Moving the model put its weights on
        the GPU; the batch is still in host memory, so the first layer raises "Expected all
        tensors to be on the same device, but found at least two devices, cuda:0 and cpu!".
        On a CPU-only machine the bug is invisible, which is why it reaches the cluster.
    """
    bad = """
        import torch

        device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
        model = torch.nn.Linear(4, 1).to(device)
        loader = torch.utils.data.DataLoader(dataset, batch_size=8)
        for x, y in loader:
            out = model(x)
    """
    good = """
        import torch

        device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
        model = torch.nn.Linear(4, 1).to(device)
        loader = torch.utils.data.DataLoader(dataset, batch_size=8)
        for x, y in loader:
            x, y = x.to(device), y.to(device)
            out = model(x)
    """
    fix = """
        Move every batch right after the loader yields it, inside the inner loop:
        `x, y = x.to(device), y.to(device)`; for dict batches
        `batch = {k: v.to(device) for k, v in batch.items()}`.
    """

    def check(self, model: Model) -> Iterator[RawFinding]:
        for batch in unmoved_batches(model):
            if batch.code != self.code:
                continue
            meeting = batch.meeting
            if meeting.host.value.held:
                each = ("{k: v.to(device) for k, v in t.items()}" if meeting.host.value.dict_like
                        else "t.to(device)")
                message = (
                    f"batch `{batch.name}`, a tuple of the samples' tensors, reaches "
                    f"{device_phrase(meeting)} without being moved to its device in this "
                    f"iteration; move each of them: `{batch.name} = [{each} for t in {batch.name}]` "
                    f"(of dicts of tensors: `[{{k: v.to(device) for k, v in t.items()}} for t in "
                    f"{batch.name}]`)" if not meeting.host.value.dict_like else
                    f"batch `{batch.name}`, a tuple of the samples' dicts of tensors, reaches "
                    f"{device_phrase(meeting)} without being moved to its device in this "
                    f"iteration; move each of them: `{batch.name} = [{each} for t in {batch.name}]`"
                )
            else:
                message = (
                    f"batch `{batch.name}` reaches {device_phrase(meeting)} without being moved "
                    f"to its device in this iteration; move it with "
                    f"`{batch.name} = {batch.name}.to(device)` after the loader yields it"
                )
            yield self.finding(
                meeting.host.node, message, related_node=related_node(meeting),
                related_label="model moved here", fix=batch_fix(siblings(model, batch), model),
            )
