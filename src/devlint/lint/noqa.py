"""`# noqa` comments written for findings: `devlint check --add-noqa`, to adopt devlint on code
that has findings today, and the editor's "disable for this line". A comment goes at the end of
the finding's line (where `noqa` is looked for), or its code joins the `# noqa: CODES` already
there. No comment is written where it cannot go (the line ends inside a string or continues
with a backslash), nor for what a line's comment does not silence: DEV998 and DEV999 are about
the file, and a notebook's cells are not lines of the file."""
from __future__ import annotations

import io
import tokenize
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Optional

from devlint.lint.analyze import FILE_CODES
from devlint.core.findings import Finding, TextEdit
from devlint.core.lines import NOQA, line_starts


def noqa_edit(text: str, start: int, end: int, line: int, code: str) -> Optional[TextEdit]:
    """`  # noqa: CODE` at the end of 1-based `line` (its content is text[start:end]), or CODE
    added to the noqa already there; None where a comment cannot go."""
    content = text[start:end]
    match = NOQA.search(content)
    if match is not None and match.group("codes"):
        at = start + match.end("codes")
        return TextEdit(at, at, f", {code}")
    if match is not None or content.rstrip().endswith("\\") or ends_inside_string(text, line):
        return None
    return TextEdit(end, end, f"  # noqa: {code}")


def ends_inside_string(text: str, line: int) -> bool:
    try:
        for token in tokenize.generate_tokens(io.StringIO(text).readline):
            if token.start[0] > line:
                return False
            if token.start[0] <= line < token.end[0]:
                return True
    except (tokenize.TokenError, SyntaxError):
        return True  # unknown stays silent: no comment is offered
    return False


def why_not(finding: Finding) -> Optional[str]:
    """Why no line comment can silence `finding`, or None."""
    if finding.code in FILE_CODES:
        return (f"{finding.code} is about the whole file: a line's noqa does not silence it "
                "(use ignore or per-file-ignores)")
    if finding.cell is not None:
        return "in a notebook: add the noqa to the cell's line by hand"
    return None


def add_noqa(text: str, findings: list[Finding]) -> tuple[str, list[Finding], list[Finding]]:
    """The text with a noqa for each finding, the findings silenced and those that could not
    be (their line cannot take a comment)."""
    starts = line_starts(text)
    by_line: dict[int, list[str]] = {}
    for finding in findings:
        codes = by_line.setdefault(finding.line, [])
        if finding.code not in codes:
            codes.append(finding.code)
    refused: set[int] = set()
    for line in sorted(by_line, reverse=True):  # an edit never moves the lines above it
        if not 0 < line <= len(starts):
            refused.add(line)
            continue
        for code in sorted(by_line[line]):
            start = starts[line - 1]
            end = starts[line] if line < len(starts) else len(text)
            end = _content_end(text, start, end)
            edit = noqa_edit(text, start, end, line, code)
            if edit is None:
                refused.add(line)
                break
            text = text[:edit.start] + edit.text + text[edit.end:]
    added = [f for f in findings if f.line not in refused]
    return text, added, [f for f in findings if f.line in refused]


def _content_end(text: str, start: int, end: int) -> int:
    while end > start and text[end - 1] in "\r\n":
        end -= 1
    return end


@dataclass
class NoqaOutcome:
    added: int = 0
    files: int = 0
    skipped: list[tuple[Finding, str]] = field(default_factory=list)


def add_noqa_to_files(findings: list[Finding], write: Callable[[Path, bytes, bytes], bool],
                      fail: Callable[[str], None]) -> NoqaOutcome:
    """Each file's findings silenced in place; `write(path, before, after)` writes a file (and
    says why not in one line through `fail`)."""
    from devlint.core.source_text import SourceError, decode_source_with_encoding
    from devlint.workspace.source import ReadError, read_source

    outcome = NoqaOutcome()
    per_file: dict[str, list[Finding]] = {}
    for finding in findings:
        reason = why_not(finding)
        if reason is not None:
            outcome.skipped.append((finding, reason))
        else:
            per_file.setdefault(finding.path, []).append(finding)
    for name, found in per_file.items():
        path = Path(name)
        try:
            data = read_source(path)
            text, encoding = decode_source_with_encoding(data)
        except (ReadError, OSError, SourceError) as exc:
            fail(f"{path}: no noqa added: {exc}")
            continue
        new, added, refused = add_noqa(text, found)
        outcome.skipped += [(f, "the line ends inside a string or continues with a backslash")
                            for f in refused]
        if added and write(path, data, new.encode(encoding)):  # else `write` said why not
            outcome.added += len(added)
            outcome.files += 1
    return outcome
