"""Mutations for fuzzing the engine: what editing, merging and pasting do to real files.
Used by tests/test_fuzz.py (a bounded slice in CI) and scripts/fuzz.py (the long campaign)."""
from __future__ import annotations

import random
import re
import warnings

TOKEN = re.compile(r"\w+|[^\w\s]")


def mutate(text: str, rng: random.Random, rounds: int = 3) -> str:
    lines = text.splitlines(keepends=True) or [""]
    for _ in range(rng.randint(1, rounds)):
        kind = rng.choice(("delete", "duplicate", "indent", "dedent", "swap_tokens", "truncate",
                           "join"))
        at = rng.randrange(len(lines))
        if kind == "delete" and len(lines) > 1:
            del lines[at]
        elif kind == "duplicate":
            lines.insert(at, lines[at])
        elif kind == "indent":
            lines[at] = rng.choice(("    ", "\t", " ")) + lines[at]
        elif kind == "dedent":
            lines[at] = lines[at].lstrip(" \t")
        elif kind == "swap_tokens":
            tokens = TOKEN.findall(lines[at])
            if len(tokens) >= 2:
                a, b = rng.sample(tokens, 2)
                lines[at] = lines[at].replace(a, "\0", 1).replace(b, a, 1).replace("\0", b, 1)
        elif kind == "truncate":
            lines[at] = lines[at][: rng.randrange(len(lines[at]) + 1)]
        elif kind == "join" and at + 1 < len(lines):
            lines[at] = lines[at].rstrip("\r\n") + " " + lines.pop(at + 1)
    return "".join(lines)


def check_invariants(text: str, findings) -> None:
    """What must hold for any input: positions inside the file; DEV999 exactly when Python
    refuses it; DEV998 only for valid Python that devlint's limits or libcst keep out."""
    import ast

    line_count = text.count("\n") + text.count("\r") - text.count("\r\n") + 1
    for finding in findings:
        assert 1 <= finding.line <= line_count + 1, finding
        assert finding.column >= 1, finding
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", SyntaxWarning)
            ast.parse(text)
        compiles = True
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        compiles = False
    codes = {f.code for f in findings}
    assert (not compiles) == ("DEV999" in codes), findings
    assert "DEV998" not in codes or (compiles and _devlint_refuses(text)), findings


def _devlint_refuses(text: str) -> bool:
    """Files CPython parses that the screen or libcst refuses: DEV998 is the honest answer."""
    from devlint.lint.limits import Unanalysable, check_size, deep_recursion, screen
    from devlint.lint.parse import check_syntax, parse_module

    try:
        check_size(text)
        screen(check_syntax(text))
        with deep_recursion():
            parse_module(text)
    except (Unanalysable, RecursionError):
        return True
    return False
