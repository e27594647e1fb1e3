"""`devlint server`: the language server, for editors."""
from __future__ import annotations

import argparse

from devlint.cli.common import EXIT_ERROR, error


def add_server_parser(sub) -> None:
    sub.add_parser("server", help="run the language server (LSP over stdio) for editors",
                   description="Speak the Language Server Protocol on stdin and stdout: "
                               "diagnostics, quick fixes and rule docs in the editor.")


def run_server(args: argparse.Namespace) -> int:
    try:
        from devlint.server.lsp import DevlintServer
    except ImportError as exc:
        error(f"`devlint server` needs pygls: pip install 'devlint[lsp]' ({exc})")
        return EXIT_ERROR
    return DevlintServer().serve()
