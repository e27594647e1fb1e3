"""Every rule, in code order. A code is a public contract: never reuse or renumber one."""
from __future__ import annotations

from devlint.core.codes import PARSE_ERROR
from devlint.core.findings import Applicability
from devlint.lint.rules.base import Rule
from devlint.lint.rules.dev001_hard_coded_cuda import HardCodedCuda
from devlint.lint.rules.dev002_batch_not_moved import BatchNotMoved
from devlint.lint.rules.dev003_batch_moved_outside_loop import BatchMovedOutsideLoop
from devlint.lint.rules.dev004_loss_device_mismatch import LossDeviceMismatch
from devlint.lint.rules.dev005_discarded_to import DiscardedTo
from devlint.lint.rules.dev006_cpu_tensor_in_device_code import CpuTensorInDeviceCode
from devlint.lint.rules.dev007_model_moved_in_loop import ModelMovedInLoop
from devlint.lint.rules.dev008_load_without_map_location import LoadWithoutMapLocation
from devlint.lint.rules.dev009_unregistered_submodules import UnregisteredSubmodules
from devlint.lint.rules.dev010_plain_tensor_attribute import PlainTensorAttribute
from devlint.lint.rules.dev011_numpy_on_device_tensor import NumpyOnDeviceTensor
from devlint.lint.rules.dev012_loss_weight_on_cpu import LossWeightOnCpu
from devlint.lint.rules.dev013_fixed_gpu_index_in_distributed import FixedGpuIndexInDistributed
from devlint.lint.rules.dev014_ddp_before_move import DdpBeforeMove
from devlint.lint.rules.dev015_module_added_after_move import ModuleAddedAfterMove
from devlint.lint.rules.dev016_copy_before_move import CopyBeforeMove
from devlint.lint.rules.dev017_optimizer_state_before_move import OptimizerStateBeforeMove
from devlint.lint.rules.dev018_fixed_gpu_ordinal import FixedGpuOrdinal
from devlint.lint.rules.dev019_metric_not_moved import MetricNotMoved
from devlint.lint.rules.dev020_encoding_taken_before_move import EncodingTakenBeforeMove
from devlint.lint.rules.dev021_legacy_type_cast import LegacyTypeCast
from devlint.lint.rules.dev022_cuda_test_not_skipped import CudaTestNotSkipped

ALL_RULES: tuple[type[Rule], ...] = (
    HardCodedCuda,
    BatchNotMoved,
    BatchMovedOutsideLoop,
    LossDeviceMismatch,
    DiscardedTo,
    CpuTensorInDeviceCode,
    ModelMovedInLoop,
    LoadWithoutMapLocation,
    UnregisteredSubmodules,
    PlainTensorAttribute,
    NumpyOnDeviceTensor,
    LossWeightOnCpu,
    FixedGpuIndexInDistributed,
    DdpBeforeMove,
    ModuleAddedAfterMove,
    CopyBeforeMove,
    OptimizerStateBeforeMove,
    FixedGpuOrdinal,
    MetricNotMoved,
    EncodingTakenBeforeMove,
    LegacyTypeCast,
    CudaTestNotSkipped,
)
RULES_BY_CODE: dict[str, type[Rule]] = {rule.code: rule for rule in ALL_RULES}
PARSE_ERROR_CODE = PARSE_ERROR.code


def unsafe_fix_codes() -> list[str]:
    """The rules whose fixes move code: `--fix` applies them only with `--unsafe-fixes`."""
    return [rule.code for rule in ALL_RULES if rule.fix_kind is Applicability.UNSAFE]

