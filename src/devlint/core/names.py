"""The names a piece of Python code mentions, read from CPython's `ast`: what the liveness
questions of the workspace (which definitions a script's code names) and of the model (which
definitions of a module name another) both ask."""
from __future__ import annotations

import ast


def ast_words(node: ast.AST) -> set:
    """The identifiers under `node`: names, attribute names, and strings that are identifiers
    (`getattr(mod, "_encode")`, a registry's keys)."""
    found = set()
    for sub in ast.walk(node):
        if type(sub) is ast.Name:
            found.add(sub.id)
        elif type(sub) is ast.Attribute:
            found.add(sub.attr)
        elif type(sub) is ast.Constant and type(sub.value) is str and sub.value.isidentifier():
            found.add(sub.value)
    return found
