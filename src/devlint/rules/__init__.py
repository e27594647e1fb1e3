"""Every rule, in code order. A code is a public contract: never reuse or renumber one."""
from __future__ import annotations

from devlint.rules.base import Rule
from devlint.rules.dev001_hard_coded_cuda import HardCodedCuda
from devlint.rules.dev002_batch_not_moved import BatchNotMoved
from devlint.rules.dev003_batch_moved_outside_loop import BatchMovedOutsideLoop
from devlint.rules.dev004_loss_device_mismatch import LossDeviceMismatch

ALL_RULES: tuple[type[Rule], ...] = (
    HardCodedCuda,
    BatchNotMoved,
    BatchMovedOutsideLoop,
    LossDeviceMismatch,
)
RULES_BY_CODE: dict[str, type[Rule]] = {rule.code: rule for rule in ALL_RULES}
PARSE_ERROR_CODE = "DEV999"

