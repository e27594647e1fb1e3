from __future__ import annotations

from typing import Iterator, Optional

import libcst as cst

from devlint.lint.facts import ClassInfo, Container, Facts
from devlint.lint.findings import Applicability, Edit, Fix, RawFinding
from devlint.lint.rules.base import Rule
from devlint.lint.rules.fixes import code


class UnregisteredSubmodules(Rule):
    code = "DEV009"
    name = "unregistered-submodules"
    fix_kind = Applicability.UNSAFE
    summary = "Submodules kept in a plain `list` or `dict` attribute of an `nn.Module`."
    what = """
        Inside a class that is an `nn.Module` (directly, through a Lightning module, or through
        another module class of the file), finds `self.attr = [...]` or `{...}` (displays and
        comprehensions) whose elements are modules (`nn.Linear(...)`, a module class of the file),
        and `self.attr = []` later filled with `.append(nn.X(...))` or `self.attr[k] = nn.X(...)`.
    """
    silent = """
        When the container is handed to `nn.Sequential`, `nn.ModuleList` or `nn.ModuleDict`, when
        the class registers modules by hand (`add_module`, `register_module`, `setattr`), and for
        lists of anything that is not a module constructor (a list holding an existing model is a
        known trick to hide it).
    """
    why = """
        `nn.Module` registers only attributes that are modules, parameters or buffers. A plain
        list is none of these, so the layers inside it are invisible to `model.to(device)`,
        `model.parameters()`, `state_dict()` and `model.train()`/`eval()`. After
        `model.to('cuda')` those layers still hold CPU weights ("Expected all tensors to be on
        the same device"), and on the CPU the optimizer silently never trains them and the
        checkpoint never saves them.
    """
    bad = """
        import torch.nn as nn

        class MLP(nn.Module):
            def __init__(self, sizes):
                super().__init__()
                self.layers = [nn.Linear(a, b) for a, b in zip(sizes, sizes[1:])]

            def forward(self, x):
                for layer in self.layers:
                    x = layer(x).relu()
                return x
    """
    good = """
        import torch.nn as nn

        class MLP(nn.Module):
            def __init__(self, sizes):
                super().__init__()
                self.layers = nn.ModuleList(nn.Linear(a, b) for a, b in zip(sizes, sizes[1:]))

            def forward(self, x):
                for layer in self.layers:
                    x = layer(x).relu()
                return x
    """
    fix = """
        Wrap the container: `nn.ModuleList([...])`, `nn.ModuleList()` for an empty list filled
        later, `nn.ModuleDict({...})` for a dict with string keys. An unsafe fix: the layers
        join `parameters()` and `state_dict()`, so the optimizer starts training them and
        older checkpoints miss their keys.
    """

    def check(self, facts: Facts) -> Iterator[RawFinding]:
        for name in sorted(facts.module_classes):
            info = facts.classes[name]
            if info.registers_by_hand:
                continue
            for attr, container in info.containers.items():
                if attr in info.wrapped or not self.holds_modules(container, info, facts):
                    continue
                kind = "dict" if isinstance(container.value, (cst.Dict, cst.DictComp)) else "list"
                wrapper = "nn.ModuleDict" if kind == "dict" else "nn.ModuleList"
                message = (
                    f"`self.{attr}` keeps submodules of `{name}` in a plain {kind}: "
                    f"`model.to(device)` and `parameters()` never see them; use `{wrapper}`"
                )
                yield self.finding(container.value, message, fix=self.fix_for(container, facts))

    @staticmethod
    def holds_modules(container: Container, info: ClassInfo, facts: Facts) -> bool:
        callees = list(container.callees) + info.added.get(container.attr, [])
        return any(facts.is_module_constructor(c) for c in callees)

    @staticmethod
    def fix_for(container: Container, facts: Facts) -> Optional[Fix]:
        nn = facts.nn_prefix()
        value = container.value
        if nn is None:
            return None
        if isinstance(value, (cst.List, cst.ListComp)):
            text = f"{nn}.ModuleList()" if isinstance(value, cst.List) and not value.elements else f"{nn}.ModuleList({code(value)})"
        elif isinstance(value, cst.Dict) and all(
            isinstance(e, cst.DictElement) and isinstance(e.key, cst.SimpleString) for e in value.elements
        ):
            text = f"{nn}.ModuleDict()" if not value.elements else f"{nn}.ModuleDict({code(value)})"
        else:
            return None  # a tuple, or keys ModuleDict may refuse (it wants strings)
        return Fix("register the submodules", Applicability.UNSAFE, (Edit("replace", value, text),))
