from __future__ import annotations

from typing import Any, Iterator, Optional

import libcst as cst

from devlint.core.findings import Applicability, Edit, Fix, RawFinding
from devlint.lint.model import Model
from devlint.lint.model.observations import ModuleContainer
from devlint.lint.rules.base import Rule
from devlint.lint.rules.fixes import code
from devlint.lint.syntax import walk


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
        When the container is handed to `nn.Sequential`, `nn.ModuleList` or `nn.ModuleDict` (whole,
        or item by item: `nn.Sequential(self.noisy[0], nn.ReLU(), self.noisy[1])`), when
        the class registers modules by hand (`add_module`, `register_module`, `setattr`, or
        `register_parameter` of a parameter it did not make there: each listed layer's
        `parameters()`, as pytorch_RVAE's `Highway` does, or an `nn.ParameterList` of a list
        it filled with them, as MIR's `IAF` does), when
        only `__init__` and the helpers only it calls read the container (candidate backbones
        in a dict, one picked and its layers registered: nothing that runs after the model's
        move uses the container), and for
        lists of anything that is not a module constructor (a list holding an existing model is a
        known trick to hide it), including modules the caller made and handed in (a function that
        calls the constructor, or the script's top level: `Ensemble([segresnet, unet])` of two
        models it trained itself). A plain dict or list of metrics only (`{"f1": F1Score(...)}`) is
        DEV019's finding, where a metric meets device tensors: one root cause, one finding.
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

    def check(self, model: Model) -> Iterator[RawFinding]:
        for info in sorted(model.classes, key=lambda c: c.name):
            if not info.is_module or info.registers_by_hand:
                continue
            for attr, container in info.containers.items():
                if attr in info.wrapped:
                    continue
                node = container.node
                if _only_metrics(node, model):
                    continue  # DEV019 says it where a metric meets device tensors: one finding
                if _read_only_while_built(info.node, attr, model.module):
                    continue
                kind = "dict" if type(node) in (cst.Dict, cst.DictComp) else "list"
                wrapper = "nn.ModuleDict" if kind == "dict" else "nn.ModuleList"
                message = (
                    f"`self.{attr}` keeps submodules of `{info.name}` in a plain {kind}: "
                    f"`model.to(device)` and `parameters()` never see them; use `{wrapper}`"
                )
                yield self.finding(node, message, fix=self.fix_for(container, model))

    @staticmethod
    def fix_for(container: ModuleContainer, model: Model) -> Optional[Fix]:
        env = model.interpreter.module_env
        nn = "nn" if type(env.get("nn")).__name__ == "Ref" and env["nn"].qualname == "torch.nn" \
            else "torch.nn" if type(env.get("torch")).__name__ == "Ref" else None
        value = container.node
        if nn is None:
            return None
        if type(value) in (cst.List, cst.ListComp):
            empty = type(value) is cst.List and not value.elements
            text = f"{nn}.ModuleList()" if empty else f"{nn}.ModuleList({code(value)})"
        elif type(value) is cst.Dict and all(
            type(e) is cst.DictElement and type(e.key) is cst.SimpleString for e in value.elements
        ):
            text = f"{nn}.ModuleDict()" if not value.elements else f"{nn}.ModuleDict({code(value)})"
        else:
            return None  # a tuple, or keys ModuleDict may refuse (it wants strings)
        return Fix("register the submodules", Applicability.UNSAFE, (Edit("replace", value, text),))


def _read_only_while_built(cls: cst.ClassDef, attr: str, module: cst.Module) -> bool:
    """`self.resnet_dict = {"resnet18": ..., "resnet50": ...}`, read only by `__init__` and the
    helpers only `__init__` calls (`resnet = self._get_basemodel(name)`, whose children a
    registered `nn.Sequential` takes): no code that runs after the object is built, `forward`
    or anything outside the class, uses the container, so its modules never meet a device
    tensor."""
    methods = {s.name.value: s for s in cls.body.body if type(s) is cst.FunctionDef}
    readers = {name for name, method in methods.items() if name != "__init__" and
               _reads_attribute(method.body, attr)}
    init = methods.get("__init__")
    if init is None:
        return False
    built_by = {c.func.attr.value for c in walk(init.body) if type(c) is cst.Call and
                type(c.func) is cst.Attribute and type(c.func.value) is cst.Name and
                c.func.value.value == "self"}
    if not readers <= built_by:
        return False
    if not readers and sum(type(n) is cst.Attribute and n.attr.value == attr
                           for n in walk(init.body)) < 2:
        return False  # never read at all: nothing shows what it is for
    for name, method in methods.items():
        if name == "__init__" or name in readers:
            continue
        if any(type(c) is cst.Attribute and c.attr.value in readers for c in walk(method.body)):
            return False  # a method that runs later calls a reader
    outside = [s for s in module.body if s is not cls]
    return not any(_reads_attribute(s, attr) for s in outside) and not any(
        type(s) is cst.ClassDef and s is not cls and _reads_attribute(s, attr) for s in walk(cls))


def _reads_attribute(node: Any, attr: str) -> bool:
    return any(type(n) is cst.Attribute and n.attr.value == attr for n in walk(node))


def _only_metrics(node: Any, model: Model) -> bool:
    """`{"f1": MultilabelF1Score(...)}`: a literal whose every element builds a metric (DEV019's
    root cause: the metric is never moved)."""
    metrics = model.shared.get("metric_nodes")
    if metrics is None:
        metrics = model.shared["metric_nodes"] = frozenset(
            id(e.node) for e in model.obs.events if e.kind == "metric")
    if not metrics:
        return False
    if type(node) is cst.Dict:
        values = [e.value for e in node.elements if type(e) is cst.DictElement]
    elif type(node) in (cst.List, cst.Tuple):
        values = [e.value for e in node.elements]
    else:
        return False
    return bool(values) and all(id(v) in metrics for v in values)

