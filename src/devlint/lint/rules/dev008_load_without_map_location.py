from __future__ import annotations

from typing import Iterator, Optional

from devlint.core.findings import Applicability, Fix, RawFinding
from devlint.lint.model import Model
from devlint.lint.model.observations import Load
from devlint.lint.model.values import Opaque, Place, Scalar, Tensor, Value
from devlint.lint.rules.base import Rule
from devlint.lint.rules.fixes import add_keyword_fix, code, first_device


class LoadWithoutMapLocation(Rule):
    code = "DEV008"
    name = "load-without-map-location"
    fix_kind = Applicability.SAFE
    summary = ("`torch.load` without `map_location` in code meant to run without a GPU too, "
               "or on every rank of a distributed job.")
    what = """
        Finds `torch.load(...)` with no `map_location` (keyword or second positional argument) in a
        file that chooses its device with a fallback (`torch.cuda.is_available()`), so the file is
        meant to run on a CPU-only machine as well; and in a file that runs once per rank (it starts
        a process group or reads `LOCAL_RANK`), where every rank loads onto the GPU that saved the
        checkpoint (cuda:0, rank 0's), its own checkpoints included, unless the file is the
        rank's own (its path is built from the rank).
    """
    silent = """
        When the load sits under a test about the device, when the file saves to the same path
        itself (a checkpoint written and read by the same run lives on the run's own device; not
        under torchrun, where rank 0 writes what every rank reads), under a test about the rank
        (`if rank == 0:`), in files that set `CUDA_VISIBLE_DEVICES` per process, for a file of
        each rank's own on every rank (`f"queue{rank}.pth"`: each rank wrote it from its own GPU),
        for the state of an LR scheduler (`scheduler.load_state_dict(torch.load(path))`: numbers,
        no tensors), and for in-memory buffers.
    """
    why = """
        `torch.load` restores every tensor onto the device it was saved from. A checkpoint
        written on a GPU machine holds CUDA tensors, so loading it on a laptop or a CPU CI
        runner fails with "Attempting to deserialize object on a CUDA device but
        torch.cuda.is_available() is False", exactly on the machines the fallback was written
        for. Even on a GPU machine, every rank loading onto cuda:0 piles memory on one GPU.
    """
    bad = """
        import torch

        device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
        model = torch.nn.Linear(4, 1)
        model.load_state_dict(torch.load("checkpoint.pt"))
        model.to(device)
    """
    good = """
        import torch

        device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
        model = torch.nn.Linear(4, 1)
        model.load_state_dict(torch.load("checkpoint.pt", map_location=device))
        model.to(device)
    """
    fix = """
        Add `map_location=device` (the device variable in reach), or `map_location='cpu'` when
        there is none: `load_state_dict` copies the tensors onto the model's device anyway.
    """

    def check(self, model: Model) -> Iterator[RawFinding]:
        every_rank = model.distributed and not model.visible_devices
        if not model.fallback and not every_rank:
            return
        reported: set[int] = set()
        for load in model.obs.loads:
            if id(load.node) in reported or not load.tensors:
                continue  # an LR scheduler's state: no tensor to restore anywhere
            if any(same_path(load.path, save.path) and self.saved_on_host(save)
                   for save in model.obs.saves):
                continue  # this code wrote that file from CPU tensors: they load on the CPU
            on_every_rank = every_rank and self.loads_on_every_rank(load)
            if not on_every_rank and not (model.fallback and self.restores_saved_devices(
                    load, model)):
                continue
            reported.add(id(load.node))
            bound = model.bound_at(load.node)
            device = first_device(load.devices, bound)
            source = code(load.node.args[0].value) if load.node.args else ""
            if on_every_rank:
                target = device or ('f"cuda:{local_rank}"' if "local_rank" in bound else "'cpu'")
                message = (
                    f"`torch.load({source})` restores tensors onto the GPU that saved them, "
                    f"so every rank loads onto the saving rank's GPU (cuda:0) instead of its "
                    f"own; pass `map_location={target}`"
                )
            else:
                target = device or "'cpu'"
                message = (
                    f"`torch.load({source})` restores tensors onto the device they were saved "
                    f"from, and this file also runs without a GPU; pass `map_location={target}`"
                )
            yield self.finding(load.node, message, fix=self.fix_for(load, target))

    @staticmethod
    def restores_saved_devices(load: Load, model: Model) -> bool:
        """A load that a machine without a GPU reaches, of a file this code did not write
        itself (a resume from its own checkpoint runs where it was saved)."""
        if load.map_location or not load.where.cpu or load.where.in_test or not load.node.args:
            return False
        return not any(same_path(load.path, save.path) for save in model.obs.saves)

    @staticmethod
    def saved_on_host(save) -> bool:
        value = save.value
        return type(value) is Tensor and value.place is Place.HOST and not value.assumed

    @staticmethod
    def loads_on_every_rank(load: Load) -> bool:
        """Under torchrun the load runs on every rank (not under `if rank == 0:`), and the
        file it reads was written by one of them: its own saves do not make it safe. A path
        built from the rank (`f"queue{rank}.pth"`) is a file of each rank's own, which that
        rank wrote from its own GPU and loads back onto it."""
        return not (load.map_location or load.where.in_test or load.where.rank_guarded
                    or not load.node.args or type(load.path) is Scalar and load.path.per_rank)

    @staticmethod
    def fix_for(load: Load, target: str) -> Optional[Fix]:
        return add_keyword_fix(load.node, f"map_location={target}", f"load onto {target}")


def same_path(a: Value, b: Value) -> bool:
    """Two paths of one template: `path % (name, opt.epoch)` and `path % (name, epoch)`, the
    same variable, the same `io.BytesIO` buffer."""
    if type(a) is Scalar and type(b) is Scalar:
        return a.template is not None and _shape(a.template) == _shape(b.template or "")
    if type(a) is Opaque and type(b) is Opaque:
        return bool(a.name) and a.name == b.name
    return False


def _shape(template: str) -> str:
    import re

    return re.sub(r"(\{\})+", "{}", template)
