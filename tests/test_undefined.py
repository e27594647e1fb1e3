"""Statements that raise `NameError` whenever they run (`lint.model.undefined`): no path goes
past them, so what follows them in their function is no finding."""
from __future__ import annotations

import textwrap

import libcst as cst

from devlint.lint.model.undefined import raising_statements
from devlint.lint.syntax import walk


def _raising(source: str) -> list:
    """The first line of each raising statement, in the order of the source."""
    module = cst.parse_module(textwrap.dedent(source))
    found = raising_statements(module)
    return [module.code_for_node(node).strip().splitlines()[0] for node in walk(module)
            if id(node) in found]


def test_a_name_only_another_function_binds_is_unbound_here() -> None:
    assert _raising("""
        def first():
            pred = 1
            return pred

        def second():
            label = pred + 1
            return label
    """) == ["label = pred + 1"]


def test_module_code_a_global_statement_and_an_enclosing_function_bind() -> None:
    assert _raising("""
        def use():
            return later + counter

        def outer():
            scale = 2
            def inner(x):
                return x * scale
            return inner

        def setup():
            global counter
            counter = 0

        later = 3
    """) == []


def test_a_method_does_not_see_its_class_body_names() -> None:
    assert _raising("""
        class Net:
            size = 4

            def build(self):
                return size
    """) == ["return size"]


def test_a_try_a_short_circuit_a_lambda_and_a_comprehension_are_not_sure_to_raise() -> None:
    assert _raising("""
        def f(ok):
            try:
                value = missing
            except NameError:
                value = 0
            other = ok and missing
            later = lambda: missing
            items = [missing for _ in range(0)]
            return value, other, later, items
    """) == []


def test_a_module_that_may_bind_names_unseen_has_no_raising_statement() -> None:
    assert _raising("from helpers import *\n\ndef f():\n    return missing\n") == []
    assert _raising("globals()['missing'] = 1\n\ndef f():\n    return missing\n") == []


def test_python_2_builtins_are_bound_where_a_python_2_may_run_the_file() -> None:
    """MCD_DA's `for t in xrange(args.max_epoch):` trains under the Python 2 it was written
    for: its solver's `.cuda()` lines are reached there."""
    assert _raising("def main(args):\n    for t in xrange(args.epochs):\n        print(t)\n") == []
    assert _raising("def main(args):\n    for t in xrang(args.epochs):\n        print(t)\n") == \
        ["for t in xrang(args.epochs):"]


def _program_raising(source: str) -> list:
    module = cst.parse_module(textwrap.dedent(source))
    found = raising_statements(module, program=True)
    return [module.code_for_node(node).strip().splitlines()[0] for node in walk(module)
            if id(node) in found]


def test_a_method_named_like_a_dynamic_builtin_binds_nothing() -> None:
    """`model.eval()` is a method call; only the bare builtin `eval(...)` may bind unseen."""
    assert _raising("def f(model):\n    model.eval()\n    return missing\n") == ["return missing"]
    assert _raising("def f(model):\n    eval('x')\n    return missing\n") == []


def test_module_level_lines_raise_only_in_a_file_that_parses_its_command_line() -> None:
    """FPGM's `VGG_cifar/main_cifar_vgg.py` calls `sys.path.append(...)` without importing
    `sys`; a snippet's `train_loader` may be a name of the session it is pasted into."""
    source = """
        import argparse
        import os
        sys.path.append(os.path.dirname(__file__))
        parser = argparse.ArgumentParser()
        args = parser.parse_args()
    """
    assert _raising(source) == []
    assert _program_raising(source) == ["sys.path.append(os.path.dirname(__file__))"]


def test_a_star_import_of_unknown_names_binds_nothing_before_it_runs() -> None:
    source = """
        import os
        sys.path.append(os.path.dirname(__file__))
        from models import *
        model = missing_after_the_star
        def f():
            return missing
    """
    assert _program_raising(source) == ["sys.path.append(os.path.dirname(__file__))"]
    assert _raising(source) == []
