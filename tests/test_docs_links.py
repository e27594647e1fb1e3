"""The README is a front page and docs/ holds one page per topic: every link in them resolves,
to a file or directory of the repository, or to a heading of the page it names (as a forge
renders headings into anchors). Links are relative: the project has no home to make them
absolute (docs/index.md, "Links and the package index"); host URLs are tests/test_home.py's."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from conftest import ROOT

LINK = re.compile(r"!?\[(?:[^\]\[]|\[[^\]]*\])*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")
FRONT_PAGE_LINES = 250


def pages() -> list[Path]:
    return [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]


def prose(text: str) -> str:
    """The text outside fenced code blocks and inline code spans."""
    text = re.sub(r"^```.*?^```", "", text, flags=re.S | re.M)
    return re.sub(r"`[^`\n]*`", "", text)


def slug(heading: str) -> str:
    """A heading's anchor, as GitHub and most Markdown renderers make it."""
    text = heading.strip().lower().replace("`", "")
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def anchors(path: Path) -> set[str]:
    text = re.sub(r"^```.*?^```", "", path.read_text(encoding="utf-8"), flags=re.S | re.M)
    found: set[str] = set()
    for heading in re.findall(r"^#{1,6} (.+)$", text, re.M):
        base, n = slug(heading), 0
        while (f"{base}-{n}" if n else base) in found:
            n += 1
        found.add(f"{base}-{n}" if n else base)
    return found


def broken_links(path: Path) -> list[str]:
    bad = []
    for target in LINK.findall(prose(path.read_text(encoding="utf-8"))):
        if re.match(r"[a-z][a-z0-9+.-]*:", target):
            continue  # a host URL: tests/test_home.py decides which may appear
        file_part, _, anchor = target.partition("#")
        resolved = (path.parent / file_part).resolve() if file_part else path
        if not resolved.exists() or ROOT.resolve() not in (resolved, *resolved.parents):
            bad.append(f"{target} (no such file in the repository)")
        elif anchor and (resolved.is_dir() or anchor not in anchors(resolved)):
            bad.append(f"{target} (no heading #{anchor})")
    return bad


def test_every_link_in_the_readme_and_docs_resolves() -> None:
    found = {str(p.relative_to(ROOT)): broken_links(p) for p in pages()}
    assert {page: links for page, links in found.items() if links} == {}


def test_the_check_finds_a_missing_file_and_a_missing_anchor(tmp_path: Path,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(__import__(__name__), "ROOT", tmp_path)
    (tmp_path / "other.md").write_text("# Title\n\n## Where `it` goes: here\n", encoding="utf-8")
    page = tmp_path / "page.md"
    page.write_text("[a](other.md#where-it-goes-here) [b](other.md#nowhere) [c](gone.md)\n"
                    "`[d](in-code.md)` [e](https://example.invalid/x) ![f](other.md)\n",
                    encoding="utf-8")
    assert broken_links(page) == ["other.md#nowhere (no heading #nowhere)",
                                  "gone.md (no such file in the repository)"]


def test_the_readme_is_a_front_page_and_docs_has_a_page_per_topic() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert len(readme.splitlines()) <= FRONT_PAGE_LINES
    for topic in ("configuration", "model", "verify", "bench", "editor", "ci", "robustness",
                  "accuracy", "contributing", "check", "index"):
        assert (ROOT / "docs" / f"{topic}.md").is_file(), topic
        assert f"(docs/{topic}.md)" in readme, topic
    # the places other sections are merged into
    assert {"precision-the-ecosystem-check", "recall"} <= anchors(ROOT / "docs" / "accuracy.md")


def test_the_readme_has_no_image() -> None:
    """A relative image breaks on a package index's project page; the figures live in docs/."""
    assert not re.search(r"!\[", prose((ROOT / "README.md").read_text(encoding="utf-8")))


def test_the_neovim_snippets_say_which_neovim_they_need() -> None:
    """`vim.fs.root` came with Neovim 0.10, `vim.lsp.config` with 0.11: each snippet says so."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    label, snippet = re.search(r"(Neovim [\d.]+\+)[^\n]*\n\n```lua\n(.*?)```", readme, re.S).groups()
    assert "vim.fs.root" in snippet and label == "Neovim 0.10+"
    editor = (ROOT / "docs" / "editor.md").read_text(encoding="utf-8")
    for version, call in (("0.11", "vim.lsp.config"), ("0.10", "vim.fs.root")):
        block = re.search(rf"### Neovim {version}\+\n.*?```lua\n(.*?)```", editor, re.S).group(1)
        assert call in block
