"""`devlint check`, `rule`, `verify`, `bench`, `server`: argument parsing and output only.
Linting never imports torch; `verify` loads its package lazily, and only its child processes
and the GPU probe import torch; only `server` imports pygls."""
from __future__ import annotations

import argparse
import sys
from typing import Optional, Sequence

from devlint import __version__
from devlint.cli.bench import add_bench_parser, run_bench
from devlint.cli.check import add_check_parser, run_check
from devlint.cli.common import EXIT_ERROR, detach_stdout, error
from devlint.cli.rule import add_rule_parser, run_rule
from devlint.cli.server import add_server_parser, run_server
from devlint.cli.verify import add_verify_parser, run_verify


class Parser(argparse.ArgumentParser):
    """argparse, with "did you mean" for a misspelt subcommand or choice (`--format jsn`);
    subparsers are of the same class. Misspelt options: `unrecognized`."""

    def error(self, message: str):
        import re

        from devlint.hints import did_you_mean

        choice = re.search(r"invalid choice: '([^']*)' \(choose from (.*)\)", message)
        if choice:
            options = [c.strip().strip("'") for c in choice.group(2).split(",")]
            message += did_you_mean(choice.group(1), options)
        super().error(message)

    def unrecognized(self, extras: list[str]) -> None:
        """Exits 2 naming the arguments no option takes, with the closest option of this
        (sub)command for the first one that looks like an option."""
        from devlint.hints import did_you_mean

        options = [o for o in self._option_string_actions if o.startswith("--")]
        first = next((e.split("=", 1)[0] for e in extras if e.startswith("--")), None)
        hint = did_you_mean(first, options) if first else ""
        self.error(f"unrecognized arguments: {' '.join(extras)}{hint}")


def build_parser() -> Parser:
    parser = Parser(
        prog="devlint", description="Find and fix PyTorch device-placement bugs."
    )
    parser.add_argument("--version", action="version", version=f"devlint {__version__}")
    sub = parser.add_subparsers(dest="command")
    add_check_parser(sub)
    add_verify_parser(sub)
    add_bench_parser(sub)
    add_rule_parser(sub)
    add_server_parser(sub)
    return parser


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = build_parser()
    argv = list(sys.argv[1:] if argv is None else argv)
    script_args: list[str] = []
    if argv[:1] in (["verify"], ["bench"]) and "--" in argv:
        # everything after `--` belongs to the user's script, never to devlint
        split = argv.index("--")
        argv, script_args = argv[:split], argv[split + 1:]
    try:
        args, extras = parser.parse_known_args(argv)
        if extras:
            subparsers = parser._subparsers._group_actions[0].choices  # type: ignore[union-attr]
            subparsers.get(args.command, parser).unrecognized(extras)
    except SystemExit as exc:  # argparse exits 2 on usage errors, 0 on --help
        return int(exc.code or 0)
    try:
        return run(parser, args, script_args)
    except BrokenPipeError:  # `devlint ... | head`: the reader left; say so once, exit 2
        detach_stdout()
        error("the output was closed before the report ended (broken pipe)")
        return EXIT_ERROR


def run(parser: argparse.ArgumentParser, args: argparse.Namespace, script_args: list[str]) -> int:
    if args.command == "check":
        return run_check(args)
    if args.command == "rule":
        return run_rule(args)
    if args.command == "verify":
        return run_verify(args, script_args)
    if args.command == "bench":
        return run_bench(args, script_args)
    if args.command == "server":
        return run_server(args)
    parser.print_help(sys.stderr)
    return EXIT_ERROR
