#!/usr/bin/env bash
# Installs what the tests need into the active environment, as the README's test command does:
# torch's CPU build first (so nothing pulls several GB of CUDA libraries), then devlint, editable,
# with its test and verify extras. Run from the repository root; `.ci/run` and
# .github/workflows/ci.yml both use it, then run `python -m pytest -q`.
#
# torch comes from PyTorch's own CPU index, the way PyTorch documents it. DEVLINT_TORCH_PIN=V
# installs torch==V from the indexes pip is configured with instead: `.ci/run` pins 2.13.0, this
# project's development environment's local CPU wheel, which no public index has.
# tests/test_packaging.py checks that the default branch below is the README's command.
set -euo pipefail

if [ -n "${DEVLINT_TORCH_PIN:-}" ]; then
  pip install "torch==${DEVLINT_TORCH_PIN}"
else
  pip install torch --index-url https://download.pytorch.org/whl/cpu
fi
pip install -e '.[test,verify]'
