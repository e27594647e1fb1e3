"""Issue 21's "done when": `devlint verify` on realistic scripts (tests/verify_cases/) gives
the expected verdict, says why, and leaves the user's tree byte-identical."""
from __future__ import annotations

import pytest

pytest.importorskip("torch")

from verify_cases.cases import CASES, run_case  # noqa: E402

pytestmark = pytest.mark.usefixtures("warm_verify")


def test_there_are_enough_realistic_scripts():
    assert len({case.target for case in CASES}) >= 30


# Every case is slow: each runs verify, a child process per device (3 to 13 s with the warm
# launcher here, 40 s for torch.compile.py), minutes for all of them.
@pytest.mark.slow
@pytest.mark.parametrize("case", CASES, ids=lambda case: case.name)
def test_verdict_on_a_realistic_script(tmp_path, case):
    if case.missing():
        pytest.skip(f"needs {', '.join(case.missing())}")
    code, text, untouched = run_case(case, tmp_path)
    assert code == case.expect, text
    for phrase in case.says:
        assert phrase in text, text
    assert untouched, "the user's tree changed"
