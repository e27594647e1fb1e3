"""A parameter a `forward` uses only to pick elements may be handed a CPU tensor: PyTorch
indexes a CUDA tensor with a CPU index or mask (`lint.model.indices`)."""
from __future__ import annotations

import libcst as cst
import pytest

from devlint.lint.model.indices import index_only_params
from devlint.lint.model.state import FuncInfo


def params_of(source: str) -> frozenset:
    function = cst.parse_module(source).body[0]
    return index_only_params(FuncInfo(function, function.name.value))


@pytest.mark.parametrize("body, expected", [
    ("return x[idx]", {"idx"}),
    ("mask = idx == 2\n    return x[mask, :3]", {"idx"}),
    ("for t in torch.unique(idx):\n        x[idx == t] = t.item()\n    return x", {"idx"}),
    ("if isinstance(idx, int):\n        return self.heads[idx](x)\n    return x[idx]", {"idx"}),
    ("if idx is None:\n        return x\n    return x[idx]", {"idx"}),
])
def test_parameters_only_picking_elements_are_found(body: str, expected: set) -> None:
    assert params_of(f"def forward(self, x, idx):\n    {body}\n") == expected


@pytest.mark.parametrize("body", [
    "return x[idx] + idx",                      # arithmetic with a tensor
    "return self.emb(idx)[x > 0]",              # handed to a layer
    "mask = idx == 2\n    return mask * x",     # the mask meets x in arithmetic
    "return idx",                               # handed back
    "return len(idx)",                          # never an index: nothing to say
])
def test_any_other_use_is_not_index_only(body: str) -> None:
    assert "idx" not in params_of(f"def forward(self, x, idx):\n    {body}\n")


def test_the_receiver_is_never_a_candidate() -> None:
    assert params_of("def forward(self, x):\n    return x[self]\n") == frozenset()
