"""`devlint rule`: a rule's documentation."""
from __future__ import annotations

import argparse
import sys

from devlint.cli.common import EXIT_CLEAN, EXIT_ERROR, error


def add_rule_parser(sub) -> None:
    rule = sub.add_parser("rule", help="explain a rule")
    rule.add_argument("code", nargs="?", help="a rule code, e.g. DEV002")
    rule.add_argument("--all", action="store_true", help="list every rule")


def run_rule(args: argparse.Namespace) -> int:
    from devlint.lint.rules import ALL_RULES, DOCUMENTED_BY_CODE

    if args.all or not args.code:
        for rule in ALL_RULES:
            print(f"{rule.code}  {rule.name:<28} {rule.summary}")
        return EXIT_CLEAN
    rule = DOCUMENTED_BY_CODE.get(args.code.upper())
    if rule is None:
        error(f"unknown rule {args.code!r}; `devlint rule --all` lists them")
        return EXIT_ERROR
    sys.stdout.write(rule.docs())
    return EXIT_CLEAN
