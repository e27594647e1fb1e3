"""Which lines of the user's script ran, so the report can list the ones that never did (code
after the point where verify stopped the run, branches for another device, dead code).

A trace function for the script's own frames only: other frames get no line events. Measured
cost in benchmarks/verify_wall.py. Python 3.12's sys.monitoring would make it nearly free;
3.9-3.11 have only sys.settrace.
"""
from __future__ import annotations

import dis
import sys
import types


class LineCoverage:
    def __init__(self, filename: str):
        self.filename = filename
        self.hit: set[int] = set()

    def start(self) -> None:
        sys.settrace(self._call)

    def stop(self) -> None:
        sys.settrace(None)

    def _call(self, frame, event, arg):
        if frame.f_code.co_filename != self.filename:
            return None
        self.hit.add(frame.f_lineno)
        return self._line

    def _line(self, frame, event, arg):
        if event == "line":
            self.hit.add(frame.f_lineno)
        return self._line

    def never_run(self, code: types.CodeType) -> tuple[int, list[int]]:
        """(executable lines, the executable lines that never ran)."""
        lines = executable_lines(code)
        return len(lines), sorted(lines - self.hit)


def executable_lines(code: types.CodeType) -> set[int]:
    lines = set()
    stack = [code]
    while stack:
        current = stack.pop()
        lines.update(line for _, line in dis.findlinestarts(current) if line)
        stack.extend(c for c in current.co_consts if isinstance(c, types.CodeType))
    return lines


def ranges(lines: list[int]) -> list[tuple[int, int]]:
    """[3, 4, 5, 9] -> [(3, 5), (9, 9)]"""
    out: list[tuple[int, int]] = []
    for line in sorted(lines):
        if out and line == out[-1][1] + 1:
            out[-1] = (out[-1][0], line)
        else:
            out.append((line, line))
    return out
