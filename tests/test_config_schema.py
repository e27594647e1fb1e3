"""The JSON Schema of `[tool.devlint]` that ships in the package (for editors and SchemaStore):
generated from the parser's own knowledge, in sync with the file, naming exactly the keys the
parser accepts, and accepting exactly the tables `load_config` accepts."""
from __future__ import annotations

import importlib.resources
import itertools
import json
from pathlib import Path

import pytest

from devlint.workspace.config import KEYS, ConfigError, load_config
from devlint.workspace.config_schema import rendered

jsonschema = pytest.importorskip("jsonschema")

VALUES = [
    "DEV", "dev002", " DEV001 ", "ALL", "all", "D", "DEV9", "", " ", "DEV0002", "XYZ", "DEV015x",
    "legacy/*", ["DEV"], [], [""], ["DEV", ""], ["", " "], ["DEV", "NOPE"], ["DEV", 3], ["a/*", "b"],
    3, 1.5, True, False, {"scripts/*": ["DEV001"]}, {"x": "dev9"}, {"x": ["NOPE"]}, {"x": 1},
    {"x": []}, {},
]


def shipped() -> dict:
    text = (importlib.resources.files("devlint") / "schemas" / "tool-devlint.schema.json").read_text(
        encoding="utf-8")
    return json.loads(text)


def test_the_shipped_schema_is_the_generated_one() -> None:
    assert json.dumps(shipped(), indent=2) + "\n" == rendered(), (
        "stale: python -m devlint.workspace.config_schema rewrites it")
    jsonschema.Draft7Validator.check_schema(shipped())


def test_the_schema_names_exactly_the_keys_the_parser_accepts(tmp_path: Path) -> None:
    assert set(shipped()["properties"]) == set(KEYS)
    assert shipped()["additionalProperties"] is False
    validator = jsonschema.Draft7Validator(shipped())
    for key in KEYS:  # each is taken by the parser, with a value the schema allows...
        value = next(v for v in VALUES if validator.is_valid({key: v}))
        assert accepted_by_parser(tmp_path, {key: value}), key
    # ...and nothing else, in either
    assert not accepted_by_parser(tmp_path, {"selct": ["DEV"]})
    assert not validator.is_valid({"selct": ["DEV"]})


def toml(value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, str):
        return json.dumps(value)
    if isinstance(value, list):
        return "[" + ", ".join(map(toml, value)) + "]"
    return "{" + ", ".join(f"{json.dumps(k)} = {toml(v)}" for k, v in value.items()) + "}"


def accepted_by_parser(tmp_path: Path, table: dict) -> bool:
    pyproject = tmp_path / "pyproject.toml"
    pyproject.write_text("[tool.devlint]\n" + "".join(f"{k} = {toml(v)}\n" for k, v in table.items()),
                         encoding="utf-8")
    try:
        load_config(pyproject)
    except ConfigError:
        return False
    return True


@pytest.mark.parametrize("key", KEYS)
def test_the_schema_and_the_parser_accept_the_same_values(key: str, tmp_path: Path) -> None:
    validator = jsonschema.Draft7Validator(shipped())
    disagree = [(value, validator.is_valid({key: value}))
                for value in VALUES if validator.is_valid({key: value}) != accepted_by_parser(tmp_path, {key: value})]
    assert disagree == []


def test_tables_of_several_keys_agree_too(tmp_path: Path) -> None:
    validator = jsonschema.Draft7Validator(shipped())
    for select, ignore, exclude in itertools.product(["ALL", [], "NOPE"], ["DEV001", [3]], ["x", 1]):
        table = {"select": select, "ignore": ignore, "exclude": exclude}
        assert validator.is_valid(table) == accepted_by_parser(tmp_path, table), table
