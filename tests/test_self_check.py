"""devlint is clean on its own repository, as ruff is: `devlint check .` at the root exits 0.
What is buggy on purpose (fixtures, the recall corpus, verify's cases) is excluded in
`[tool.devlint]`; an intentional device string in the code carries a `# noqa` with its reason.
CI runs the same check through the repository's own Action (.github/workflows/ci.yml)."""
from __future__ import annotations

import re
import subprocess
import sys

import yaml

from conftest import ROOT


def test_devlint_check_at_the_root_is_clean() -> None:
    # --format github: what action.yml runs; any finding would be an `::error` line
    result = subprocess.run([sys.executable, "-m", "devlint", "check", "--format", "github", "."],
                            cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    assert result.stdout == ""


def test_every_noqa_in_the_package_says_why() -> None:
    """A `# noqa: DEVxxx` in devlint's own code gives its reason: `(reason)` or ` - reason`."""
    import tokenize

    bare = []
    for path in (ROOT / "src").rglob("*.py"):
        with path.open("rb") as handle:
            comments = [t for t in tokenize.tokenize(handle.readline) if t.type == tokenize.COMMENT]
        for token in comments:
            match = re.match(r"#\s*noqa:\s*DEV\d{3}(?:[,\s]+DEV\d{3})*(.*)$", token.string)
            if match and not re.match(r"\s*(\(\w[^)]*\)|- \w)", match.group(1)):
                bare.append(f"{path.relative_to(ROOT)}:{token.start[0]}")
    assert bare == []


def test_ci_runs_the_tests_and_the_repositorys_own_action_on_itself() -> None:
    workflow = yaml.safe_load((ROOT / ".github" / "workflows" / "ci.yml").read_text(encoding="utf-8"))
    steps = [step for job in workflow["jobs"].values() for step in job["steps"]]
    own = [step for step in steps if step.get("uses") == "./"]
    assert len(own) == 1 and own[0]["with"]["paths"] == "."
    assert (ROOT / "action.yml").is_file()
    runs = [step.get("run", "") for step in steps]
    assert "bash scripts/install_test_env.sh && python -m pytest -q" in runs
