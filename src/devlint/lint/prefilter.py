"""Which files can contain a finding, decided from the text before any parse.

Each rule names words its findings cannot exist without, as groups that must all appear:
DEV002 needs a `for` loop *and* a device word; DEV010 needs a tensor factory *and* an
`nn.Module`. A file that meets no rule's groups is never parsed by libcst (CPython's parser
still checks its syntax), which is where most of a large tree's time would go.

The words are looked up in the raw text (or its lower-case or gap-free copy), never in tokens:
a word inside a comment or a string only makes the file parse. Attribute dots may be spaced or
split by a backslash (`model . to (dev)`), as Python allows. The groups are kept necessary by a test that checks
every fixture and a real tree with and without this filter (tests/test_prefilter.py).

No libcst import here: the flake8 plugin asks this module on every file flake8 checks.
"""
from __future__ import annotations

import re
from functools import cached_property
from typing import Iterable, Mapping

# Python allows blanks, newlines inside brackets and backslash continuations around a dot and
# before a call's parenthesis; `squeezed` drops them all, so `model . to (dev)` reads `model.to(dev)`.
_GAPS = b" \t\f\r\n\\"


class Views:
    """The views of one file's text that the probes read, each made at most once. Bytes, not
    str: `bytes.translate` and `bytes.lower` run at memory speed, their str twins 50x slower."""

    def __init__(self, text: str) -> None:
        self.raw = text.encode("utf-8", "surrogatepass")

    @cached_property
    def lower(self) -> bytes:
        return self.raw.lower()

    @cached_property
    def squeezed(self) -> bytes:
        return self.raw.translate(None, _GAPS)

    @cached_property
    def calls_factory(self) -> bool:
        return _FACTORY_CALL.search(self.squeezed) is not None


# A probe is (view, needle): true when the needle is in that view; ("word", w): w is a whole
# word of raw; ("flag", name): the Views property `name` is true.
Probe = tuple[str, str]
Group = tuple[Probe, ...]  # true when any probe is


def _calls(*methods: str) -> Group:
    return tuple(("squeezed", f".{m}(") for m in methods)


def _words(*words: str) -> Group:
    return tuple(("word", w) for w in words)


# `torch.<factory>(` and `th.<factory>(`: the only factories the rules trace (syntax.TENSOR_FACTORIES).
_FACTORY_NAMES = (
    "zeros", "ones", "full", "empty", "randn", "rand", "randint", "randperm", "arange", "eye",
    "linspace", "logspace", "tensor", "as_tensor", "from_numpy", "Tensor", "FloatTensor",
    "LongTensor", "DoubleTensor", "IntTensor", "BoolTensor", "ByteTensor", "HalfTensor",
    "tril_indices", "triu_indices", "normal", "bernoulli", "multinomial",
)
_FACTORY: Group = (("flag", "calls_factory"),)
_MOVE = _calls("to", "cuda")
# accelerate's `prepare` and Fabric's `setup` place what they are given, as a move does
# (model.PREPARES): a file whose only move they are runs device code all the same.
_PREPARE: Group = (("squeezed", ".prepare("), ("raw", "Fabric"))
# Where a model can be on a device: a move, or a name that holds a device by convention.
# transformers' `Trainer` places the model and batches its subclasses' hooks get.
_DEVICE_SIDE: Group = _MOVE + _PREPARE + tuple(("lower", w) for w in ("cuda", "device", "gpu", "rank")) + \
    (("raw", "Trainer"),)
# A module class: `nn.Module`, or a class deriving a torch layer (`class CausalLinear(nn.Linear)`).
_MODULE_CLASS: Group = (("raw", "Module"), ("raw", "Sequential"), ("squeezed", "(nn."), ("squeezed", "(torch.nn."))
# Where a batch comes from: a loop over a loader, or `next(...)` of one.
_BATCH: Group = _words("for") + (("squeezed", "next("),)

# code -> groups; a finding of that code needs every group to hold.
REQUIREMENTS: Mapping[str, tuple[Group, ...]] = {
    "DEV001": ((("raw", "cuda"),),),
    "DEV002": (_BATCH, _DEVICE_SIDE),
    "DEV003": (_BATCH, _DEVICE_SIDE),
    "DEV004": (_BATCH, _DEVICE_SIDE),
    "DEV005": (_calls("to", "cuda", "cpu", "type"),),
    "DEV006": (_FACTORY, _MOVE + _PREPARE + (("lower", "device"), ("raw", "Lightning"), ("raw", "Trainer"))),
    "DEV007": (_MOVE, _words("for", "while")),
    "DEV008": ((("squeezed", "torch.load"), ("squeezed", "th.load")),),
    "DEV009": (_MODULE_CLASS, _words("self")),
    "DEV010": (_MODULE_CLASS, _FACTORY),
    "DEV011": (_calls("numpy") + tuple(("raw", w) for w in ("sklearn", "matplotlib", "pandas", "scipy",
                                                            "PIL", "array(", "asarray(", "asanyarray(",
                                                            "numpy")),
               _DEVICE_SIDE),
    "DEV012": ((("raw", "Loss"),), _FACTORY, _MOVE + (("raw", "Trainer"), ("raw", "Lightning"))),
    "DEV013": ((("raw", "init_process_group"), ("raw", "LOCAL_RANK")),),
    "DEV014": ((("raw", "DistributedDataParallel"),), _MOVE + (("raw", "nccl"),)),
    # (a trainer's callback hook, or a LightningModule's own hook, gets the module the trainer
    # moved: no move in the file)
    "DEV015": (_MOVE + (("raw", "Callback"), ("raw", "Lightning")), (("raw", "nn"), ("raw", "Module"))),
    "DEV016": (_MOVE + _PREPARE, (("raw", "deepcopy"), ("raw", "AveragedModel"))),
    "DEV017": (_MOVE, _calls("load_state_dict")),
    "DEV018": ((("raw", "cuda"),),),
    "DEV019": ((("raw", "torchmetrics"), ("squeezed", "defcompute(")), _DEVICE_SIDE),
    "DEV020": ((("raw", "return_tensors"),), _MOVE),
    "DEV021": (_calls("type"), _DEVICE_SIDE),
    "DEV022": ((("raw", "cuda"),), (("raw", "test"), ("raw", "Test"))),
}

_WORD = {w: re.compile(rb"\b" + w.encode() + rb"\b") for w in ("for", "while", "self")}
# After squeezing, `torch.zeros(` and `th.zeros(` both end in `h.zeros(`.
_FACTORY_CALL = re.compile(rf"h\.(?:{'|'.join(_FACTORY_NAMES)})\(".encode())


_BYTES = {needle: needle.encode() for groups in REQUIREMENTS.values() for group in groups
          for _, needle in group}


def _holds(views: Views, probe: Probe) -> bool:
    view, needle = probe
    if view == "word":
        return _WORD[needle].search(views.raw) is not None
    if view == "flag":
        return getattr(views, needle)
    return _BYTES[needle] in getattr(views, view)


def could_match(text: str, codes: Iterable[str]) -> bool:
    """False only when no finding of `codes` can exist in `text`."""
    views = Views(text)
    for code in codes:
        groups = REQUIREMENTS.get(code)
        if groups is None:
            return True  # a rule without requirements must always run
        if all(any(_holds(views, probe) for probe in group) for group in groups):
            return True
    return False
