"""Memory is linear in the input (issues 29 and 32, repro turn3/check_quadratic_memory): a file
of 15,000 module-level tensor names cost 4.9 GB when every node remembered every name bound
there; a bare parse of it takes about 0.3 GB."""
from __future__ import annotations

import resource
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import ONE_BUG_LOOP



@pytest.mark.slow
def test_thousands_of_tensor_names_stay_under_a_gigabyte(tmp_path: Path) -> None:
    source = tmp_path / "gen.py"
    source.write_text(ONE_BUG_LOOP + "".join(f"v{i} = torch.zeros({i})\n" for i in range(15000)))

    def cap() -> None:  # a regression must not take the machine down
        resource.setrlimit(resource.RLIMIT_AS, (6 << 30, 6 << 30))

    code = ("import resource, subprocess, sys\n"
            "p = subprocess.run([sys.executable, '-m', 'devlint', 'check', '--no-cache', '-j', '1', sys.argv[1]],"
            " capture_output=True, text=True)\n"
            "print(p.returncode, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, p.stdout[-300:])\n")
    done = subprocess.run([sys.executable, "-c", code, str(source)], capture_output=True, text=True,
                          preexec_fn=cap, timeout=900)
    rc, peak_kib, tail = done.stdout.split(" ", 2)
    assert rc == "1", done.stdout + done.stderr  # the DEV004 of the loop is still found
    assert "gen.py:12:" in tail and "DEV004" in tail
    assert int(peak_kib) < 1 << 20, f"peak {int(peak_kib) >> 10} MiB"
