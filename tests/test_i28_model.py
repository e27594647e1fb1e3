"""The model facts issue 28's rules stand on, and the crashes the ecosystem run found."""
from __future__ import annotations

import textwrap

from devlint.lint.analyze import analyze_source


def test_a_chained_comparison_of_tensors_is_no_truth_value() -> None:
    source = textwrap.dedent("""\
        import torch

        def test_spread():
            result = torch.randn(10).to("cpu")
            compare = torch.randn(10).to("cpu")
            assert 0.9 * result.mean() <= compare.mean() <= 1.1 * result.mean()
    """)
    from devlint.lint.model import analyze
    import libcst as cst

    analyze(cst.parse_module(source), source, "test_spread.py")  # no AttributeError
    assert analyze_source(source, "test_spread.py") == []


def test_a_loop_over_what_is_never_empty_runs_its_body_at_least_once() -> None:
    import libcst as cst

    from devlint.lint.model.interpret import _never_empty

    def never_empty(text: str) -> bool:
        return _never_empty(cst.parse_expression(text))

    assert all(never_empty(t) for t in ["range(300)", "range(1, 11)", "[a, b]", '("train", "val")'])
    assert not any(never_empty(t) for t in ["range(n)", "range(0)", "range(5, 5)", "[]",
                                            "[*rest]", "range(0, 10, 2)", "loader", "xrange(3)"])
