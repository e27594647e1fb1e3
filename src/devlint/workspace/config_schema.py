"""The JSON Schema of `[tool.devlint]`, shipped as `devlint/schemas/tool-devlint.schema.json`
for editors and SchemaStore (whose pyproject.toml schema points `tool.devlint` at it). It is
generated from what the parser accepts (`python -m devlint.workspace.config_schema` rewrites
it; tests/test_config_schema.py fails when it is stale and checks that the schema and
`load_config` accept and refuse the same tables)."""
from __future__ import annotations

import json
import sys
from pathlib import Path

from devlint.core.codes import KNOWN_CODES
from devlint.workspace.config import KEYS

SCHEMA_FILE = Path(__file__).resolve().parent.parent / "schemas" / "tool-devlint.schema.json"


def _either_case(text: str) -> str:
    return "".join(f"[{c.upper()}{c.lower()}]" if c.isalpha() else c for c in text)


def code_pattern(blank: bool) -> str:
    """A code or a prefix of one, or ALL, in either case, spaces around it allowed (the parser
    strips them); `blank`: an empty entry too (the parser drops it)."""
    prefixes = sorted({code[:n] for code in KNOWN_CODES for n in range(1, len(code) + 1)})
    choices = "|".join(_either_case(p) for p in [*prefixes, "ALL"])
    return f"^\\s*(?:{choices}){'?' if blank else ''}\\s*$"


def _one_or_list(item: dict, description: str) -> dict:
    """A string is a list of one, as the parser reads it."""
    return {"description": description, "anyOf": [item, {"type": "array", "items": item}]}


def schema() -> dict:
    code, chosen = {"$ref": "#/definitions/code"}, {"$ref": "#/definitions/selected-code"}
    codes = lambda what: _one_or_list(code, what)  # noqa: E731
    patterns = lambda what: _one_or_list({"type": "string"}, what)  # noqa: E731
    flag = lambda what, default: {"type": "boolean", "default": default, "description": what}  # noqa: E731
    properties = {
        "select": {
            "description": "Codes or prefixes to report (DEV, DEV00, DEV002), or ALL. An unknown "
                           "code is an error, and so is a selection of nothing.",
            "default": ["DEV"],
            "anyOf": [chosen, {"type": "array", "items": code, "contains": chosen}],
        },
        "extend-select": codes("Codes or prefixes to report besides those selected."),
        "ignore": codes("Codes or prefixes to skip; a longer selected prefix wins."),
        "exclude": patterns("gitignore-style patterns of files and directories to skip, "
                            "anchored at this pyproject.toml's directory."),
        "extend-exclude": patterns("Patterns to skip besides those of exclude."),
        "per-file-ignores": {
            "type": "object",
            "description": "A gitignore-style pattern = the codes to skip in the files it matches.",
            "additionalProperties": codes("Codes or prefixes to skip in these files."),
        },
        "respect-gitignore": flag("Skip what .gitignore excludes.", True),
        "force-exclude": flag("Apply the excludes to files named on the command line too "
                              "(pre-commit names every file).", False),
        "project": flag("Follow imports of the project's own files; false checks every file "
                        "alone.", True),
    }
    assert list(properties) == list(KEYS), "a [tool.devlint] key without its schema, or the reverse"
    return {
        "$schema": "http://json-schema.org/draft-07/schema#",
        "title": "[tool.devlint]",
        "description": "devlint's configuration in pyproject.toml: which PyTorch device-placement "
                       "rules run, on which files. Command-line flags override it.",
        "type": "object",
        "additionalProperties": False,
        "properties": properties,
        "definitions": {
            "code": {"type": "string", "pattern": code_pattern(blank=True),
                     "description": "A code or a prefix of one (any case), or ALL; a blank "
                                    "entry is skipped."},
            "selected-code": {"type": "string", "pattern": code_pattern(blank=False)},
        },
    }


def rendered() -> str:
    return json.dumps(schema(), indent=2) + "\n"


if __name__ == "__main__":
    target = Path(sys.argv[1]) if len(sys.argv) > 1 else SCHEMA_FILE
    if not target.exists() or target.read_text(encoding="utf-8") != rendered():
        target.write_text(rendered(), encoding="utf-8")
        print(f"wrote {target}")
