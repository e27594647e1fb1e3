"""The shape every rule has: a code, a name, its docs, and a decision over the model's
observations."""
from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar, Iterator, Optional

from devlint.core.findings import Applicability, RawFinding

if TYPE_CHECKING:
    from devlint.lint.model import Model


class Rule:
    """One rule. Its docs are its tests: `bad` must produce the finding, `good` none, and the
    fixes it offers are of its `fix_kind`."""

    code: ClassVar[str]
    name: ClassVar[str]
    fix_kind: ClassVar[Optional[Applicability]]  # what --fix needs: --unsafe-fixes for UNSAFE
    summary: ClassVar[str]  # one line, for `devlint rule --all` and SARIF
    what: ClassVar[str]  # What it does
    silent: ClassVar[str]  # When it stays silent: the look-alikes it leaves alone
    why: ClassVar[str]  # Why is this bad: where the numbers live at run time
    bad: ClassVar[str]  # Example
    good: ClassVar[str]  # Use instead
    fix: ClassVar[str]  # How to fix it
    example_file: ClassVar[str] = "example.py"  # the file name its examples are checked under

    def check(self, model: "Model") -> Iterator[RawFinding]:
        """The rule's decision over the model's observations."""
        raise NotImplementedError

    def finding(self, node, message: str, **kwargs) -> RawFinding:
        return RawFinding(self.code, node, message, **kwargs)

    @classmethod
    def docs(cls) -> str:
        """The rule's documentation as Markdown (what `devlint rule CODE` prints)."""
        from devlint.lint.docs import page

        return page(cls)
