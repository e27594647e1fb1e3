"""Which configuration each open document gets, shared by every document of a project.

A file's configuration is the one `devlint check` would use for it: the nearest
`pyproject.toml` with a `[tool.devlint]` table above it, so every workspace folder (and every
project nested in one) has its own. A loaded configuration is kept until that file's size or
modification time changes, or the client reports a change to any `pyproject.toml`; looking it
up again costs one read per directory level, nothing next to an analysis.
"""
from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Optional

from devlint.core.selection import Selection
from devlint.workspace.config import Config, ConfigError, find_pyproject, load_config
from devlint.workspace.discovery import Exclusions, walk_skips


@dataclass(frozen=True)
class Settings:
    """What analysing one document needs from its project."""

    selection: Optional[Selection]  # None: the project excludes the file
    problem: str = ""  # why the project's configuration could not be used, one line


class Projects:
    def __init__(self) -> None:
        self._configs: dict[Path, tuple[tuple[int, int], Config]] = {}
        self.folders: list[Path] = []  # the workspace folders, for documents without a file

    def clear(self) -> None:
        self._configs.clear()

    def settings(self, path: Optional[Path]) -> Settings:
        """The settings of a file; `path` None is an unsaved document, which gets the
        configuration of the first workspace folder."""
        if path is not None:
            path = path.resolve()  # the roots are resolved: a symlinked checkout still matches
        start = path.parent if path is not None else (self.folders[0] if self.folders else None)
        pyproject = find_pyproject(start) if start is not None else None
        problem = ""
        try:
            config = self._config(pyproject)
        except ConfigError as exc:
            # The editor keeps linting with the defaults, the default excludes included (the
            # walk never enters .venv or build/); the CLI refuses to run instead.
            config, problem = Config(root=pyproject.parent), f"{exc}; using the default rules"
        exclusions = Exclusions(config.exclude, config.respect_gitignore)
        if path is not None and walk_skips(path, self._root(config, path), exclusions):
            return Settings(None, problem)
        if path is None:
            return Settings(Selection(config.select, config.ignore, config.project), problem)
        return Settings(config.selection_for(path), problem)

    def _config(self, pyproject: Optional[Path]) -> Config:
        if pyproject is None:
            return Config()
        try:
            stat = os.stat(pyproject)
        except OSError:
            return Config()
        signature = (stat.st_mtime_ns, stat.st_size)
        cached = self._configs.get(pyproject)
        if cached is not None and cached[0] == signature:
            return cached[1]
        config = load_config(pyproject)
        self._configs[pyproject] = (signature, config)
        return config

    def _root(self, config: Config, path: Path) -> Path:
        """Exclusions are relative to the project's root, else to the workspace folder."""
        if config.root is not None:
            return config.root.resolve()
        for folder in self.folders:
            if folder in path.parents:
                return folder
        return path.parent
