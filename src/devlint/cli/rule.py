"""`devlint rule`: a rule's documentation."""
from __future__ import annotations

import argparse
import sys

from devlint.cli.common import EXIT_CLEAN, EXIT_ERROR, error


def add_rule_parser(sub) -> None:
    rule = sub.add_parser("rule", help="explain a rule")
    rule.add_argument("code", nargs="?",
                      help="a code or a rule's name, e.g. DEV002, DEV999 or hard-coded-cuda")
    rule.add_argument("--all", action="store_true", help="list every code")


def run_rule(args: argparse.Namespace) -> int:
    from devlint.lint.docs import entries, find, page

    if args.all or not args.code:
        for entry in entries():
            print(f"{entry.code}  {entry.name:<31} {entry.summary}")
        return EXIT_CLEAN
    entry = find(args.code)
    if entry is None:
        from devlint.hints import did_you_mean

        known = [name for e in entries() for name in (e.code, e.name)]
        wanted = args.code.strip()
        hint = did_you_mean(wanted.upper() if wanted[:3].upper() == "DEV" else wanted.lower(), known)
        error(f"unknown rule {args.code!r}{hint}; `devlint rule --all` lists them")
        return EXIT_ERROR
    sys.stdout.write(page(entry))
    return EXIT_CLEAN
