"""DEV998, reported by the engine rather than by a check: a valid file devlint did not analyse.
Documented as a rule is, and generated into docs/rules/DEV998.md."""
from __future__ import annotations

from devlint.lint.limits import (
    CANNOT_ANALYSE_CODE, CHAIN_BUDGET, FILE_CPU_SECONDS, MAX_DEPTH, MAX_SOURCE_CHARS,
)
from devlint.lint.rules.base import Rule


class CannotAnalyse(Rule):
    code = CANNOT_ANALYSE_CODE
    name = "cannot-analyse"
    summary = "Valid Python that devlint cannot analyse: the file was not checked."
    what = f"""
        Reported once per file, with the reason, for a file that CPython accepts and devlint
        cannot analyse:

        - syntax that libcst, devlint's parser, does not read: `(x): int = 1`, a tab after
          spaces in an indent;
        - an expression nested or chained more than {MAX_DEPTH} levels deep;
        - chains whose parse would take too long (libcst's time grows with the square of a
          chain's length; a file's long chains may add up to {CHAIN_BUDGET:,} squared links);
        - more than {MAX_SOURCE_CHARS:,} characters in a file where a rule could fire (libcst
          needs about 0.7 GB of memory per MB of source);
        - an analysis that took over {FILE_CPU_SECONDS} s of CPU, ran out of memory, or killed
          the worker process analysing it.

        No rule runs on such a file. DEV999, by contrast, is a file Python itself refuses.
    """
    why = """
        A file devlint did not analyse is a file it did not check; saying so keeps a run from
        passing in silence. The limits keep one generated or adversarial file from taking a
        CI job's time or memory, and the run goes on with every other file's findings.
    """
    bad = """
        import torch

        model = torch.nn.Linear(4, 1).cuda()
        (threshold): float = 0.5
    """
    good = """
        import torch

        model = torch.nn.Linear(4, 1).cuda()  # devlint reports DEV001 here now
        threshold: float = 0.5
    """
    fix = """
        Nothing is wrong with the file as Python. To have it analysed, rewrite the line named
        (`threshold: float = 0.5`, indent with one kind of whitespace, split a very long
        chain, move generated data out of the code). To accept that it is not analysed, add
        `DEV998` to `ignore` or to the file's `per-file-ignores`; a line's `# noqa` does not
        silence it, as it does not silence DEV999. No automatic fix.
    """
