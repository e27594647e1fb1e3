"""The shape every rule has: a code, a name, its docs, and a check over the shared facts."""
from __future__ import annotations

import textwrap
from typing import ClassVar, Iterator

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from devlint.lint.model import Model
from devlint.lint.findings import RawFinding


class Rule:
    """One rule. Its docs are its tests: `bad` must produce the finding, `good` none."""

    code: ClassVar[str]
    name: ClassVar[str]
    summary: ClassVar[str]  # one line, for `devlint rule --all` and SARIF
    what: ClassVar[str]  # What it does
    why: ClassVar[str]  # Why is this bad: where the numbers live at run time
    bad: ClassVar[str]  # Example
    good: ClassVar[str]  # Use instead
    fix: ClassVar[str]  # How to fix it

    def check(self, model: "Model") -> Iterator[RawFinding]:
        """The rule's decision over the model's observations."""
        raise NotImplementedError

    def finding(self, node, message: str, **kwargs) -> RawFinding:
        return RawFinding(self.code, node, message, **kwargs)

    @classmethod
    def docs(cls) -> str:
        """The rule's documentation as Markdown (what `devlint rule CODE` prints)."""
        return "\n".join(
            [
                f"# {cls.code} {cls.name}",
                "",
                cls.summary,
                "",
                "## What it does",
                "",
                _dedent(cls.what),
                "",
                "## Why is this bad",
                "",
                _dedent(cls.why),
                "",
                "## Example",
                "",
                "```python",
                _dedent(cls.bad),
                "```",
                "",
                "## Use instead",
                "",
                "```python",
                _dedent(cls.good),
                "```",
                "",
                "## Fix",
                "",
                _dedent(cls.fix),
                "",
            ]
        )


def _dedent(text: str) -> str:
    return textwrap.dedent(text).strip("\n")
