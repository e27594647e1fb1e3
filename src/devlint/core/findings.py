"""What the engine reports: findings with a location, an optional related location and fix."""
from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from typing import TYPE_CHECKING, Optional

if TYPE_CHECKING:  # nodes only before positions are resolved; reports never import libcst
    import libcst as cst


class Applicability(str, Enum):
    """ruff's model: a safe fix changes only where tensors live; an unsafe one moves code."""

    SAFE = "safe"
    UNSAFE = "unsafe"


@dataclass(frozen=True)
class Edit:
    """An edit anchored on nodes; the engine turns it into a `TextEdit` once positions exist.

    replace: the text from `node` to `end_node` (default: `node`) becomes `text`.
    insert_before: a new line `text` above the line of `node`, indented like `node`.
    insert_after: a new line `text` below the last line of `node`, indented like `node`.
    delete: the whole lines `node` spans.
    """

    action: str
    node: cst.CSTNode
    text: str = ""
    end_node: Optional[cst.CSTNode] = None


@dataclass(frozen=True)
class TextEdit:
    """Replace text[start:end] by `text`."""

    start: int
    end: int
    text: str


@dataclass(frozen=True)
class Fix:

    description: str
    applicability: Applicability
    edits: tuple  # of Edit before positions are resolved, of TextEdit after


# DEV001's root cause in a script that never chooses a device with a CPU fallback
NO_DEVICE_CHOICE = "no-device-choice"


@dataclass(frozen=True)
class RawFinding:
    """A rule's verdict before positions are resolved: it points at a node."""

    code: str
    node: cst.CSTNode
    message: str
    related_node: Optional[cst.CSTNode] = None
    related_label: str = ""
    fix: Optional[Fix] = None
    root_cause: str = ""  # shared by the same finding in other files of one project (see Finding)


@dataclass(frozen=True)
class Location:
    line: int
    column: int  # 1-based, as flake8 prints it


@dataclass(frozen=True)
class Related:
    location: Location
    label: str
    cell: Optional[int] = None  # a notebook's: the related place's own cell
    in_file: Optional[Location] = None  # a notebook's: where it lies in the .ipynb text
    path: Optional[str] = None  # another file's (None: the finding's own file)


def _place(line: int, column: int, cell: Optional[int], in_file: Optional[Location]) -> dict:
    out: dict = {"line": line, "column": column}
    if cell is not None:
        out["cell"] = cell
    if in_file is not None:
        out["in_file"] = {"line": in_file.line, "column": in_file.column}
    return out


def _related(related: Related) -> dict:
    out = {**_place(related.location.line, related.location.column, related.cell,
                    related.in_file), "message": related.label}
    if related.path is not None:
        out = {"path": related.path, **out}
    return out


@dataclass(frozen=True)
class Finding:
    path: str
    line: int
    column: int  # 1-based
    code: str
    message: str
    related: Optional[Related] = None
    fix: Optional[Fix] = field(default=None, compare=False)
    # In a notebook, `line` and `column` count inside the cell (as Jupyter shows them), `path`
    # is the .ipynb file, `cell` its cell number (from 1, markdown cells included) and
    # `in_file` the place in the file's own JSON text, for viewers that open the file.
    cell: Optional[int] = None
    in_file: Optional[Location] = None
    # A bug in another file's code that only the checked file's values show (a CPU tensor made
    # in the `forward` of a model that train.py moves): the call in the checked file that ran it.
    reached: Optional[Related] = None
    # A cause other files of the project share (DEV001's "no-device-choice": the file never
    # chooses a device with a CPU fallback): a run over several connected files folds those
    # findings into one (`devlint.lint.root_causes`). "" for a finding of its own.
    root_cause: str = field(default="", compare=False)
    # The findings of that cause in the other files a run folded into this one (their places).
    same_cause: tuple = field(default=(), compare=False)

    def sort_key(self) -> tuple:
        return (self.path, self.cell or 0, self.line, self.column, self.code)

    def to_dict(self) -> dict:
        out = {"path": self.path, **_place(self.line, self.column, self.cell, self.in_file),
               "code": self.code, "message": self.message}
        if self.related is not None:
            out["related"] = _related(self.related)
        if self.reached is not None:
            out["reached_from"] = _related(self.reached)
        if self.same_cause:
            out["same_cause"] = [_related(place) for place in self.same_cause]
        if self.fix is not None:
            out["fix"] = {
                "description": self.fix.description,
                "applicability": self.fix.applicability.value,
            }
        return out
