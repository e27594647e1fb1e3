"""What torchrun runs on every rank of a `devlint verify --nproc N` run (`--run-path rank.py
SPEC`): see devlint.verify.torchrun."""
import sys

from devlint.verify.torchrun import rank_entry

rank_entry(sys.argv[1])
