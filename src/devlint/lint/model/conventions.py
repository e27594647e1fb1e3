"""What the names of values of unknown origin say, by the conventions of training code.

The interpreter follows values from where this file makes them. A parameter, an attribute set
elsewhere or an import is unknown, and unknown stays silent, with the few exceptions below:
each is a convention strong enough that code breaking it is rare, and each marks the values it
places as `assumed`, so rules can tell.

- An iterable named like a data loader (`train_loader`, `val_dl`) yields CPU batches: that is
  what a `DataLoader` does.
- A callable named like a loss (`criterion`, `loss_fn`) is a loss: its operands must share a
  device.
- A user flag named like a device choice (`args.cuda`, `use_gpu`, `args.no_cuda`) is chosen for
  the accelerator in the accelerator world and against it on a machine without one.
- A value named like a device (`device`, `args.device`, `self.dev`) is the device the user
  chose: the accelerator in the accelerator world, maybe the CPU elsewhere.
- In a function that takes a device, a parameter named like a model is on that device (not in a
  constructor, which only stores both).
"""
from __future__ import annotations

import re
from functools import lru_cache
from typing import Optional

LOADER_NAME = re.compile(r"loader|(^|_)dl$|(^|_)dls$|(^|_)iter$|^batches$", re.IGNORECASE)
# (`G` and `D` of a GAN are capitals: a lower-case `g` is a graph, a random generator or a return)
MODEL_NAME = re.compile(
    r"(?i:model|net|encoder|decoder|classifier|generator|discriminator|backbone|policy|critic)|^[GD]$"
)
# Names that hold tensors even though MODEL_NAME matches them (`encoder_out`, `net_input`).
TENSOR_WORDS = re.compile(
    r"out|feat|emb|state|logit|hidden|input|mask|weight|param|grad|loss|pred|image|img|label",
    re.IGNORECASE,
)
LOSS_NAME = re.compile(r"^(criterion\w*|\w*loss_?fn|loss_func(tion)?|loss_fcn|lossfn)$", re.IGNORECASE)
DEVICE_NAME = re.compile(r"^(dev|gpu_id|cuda_id)$|device(?!_?(type|count|map|s$|_ids))",
                         re.IGNORECASE)
# A device named for where data came from or must go back to (`input_device`, `orig_device`)
# or for the CPU: not the device the code trains on.
HOST_DEVICE_NAME = re.compile(
    r"(^|_)(cpu|host|input|inputs|orig|original|src|source|prev|previous|old|initial)(_|$)",
    re.IGNORECASE)
# Batch names that usually hold a batch object (BatchEncoding, PyG/DGL graphs): `.to` may work
# in place on them, so a bare `.to` is no proof of a discarded copy.
OBJECT_BATCH_NAME = re.compile(r"batch|enc|token|data_?dict|graph", re.IGNORECASE)
# A flag choosing the accelerator (`use_cuda`, `args.gpu`) or the CPU (`no_cuda`, `use_cpu`).
ACCEL_FLAG = re.compile(r"(^|_)(cuda|gpu|gpus|mps|accelerator|on_gpu|is_cuda|has_cuda)s?\d?(_mode|_enabled)?$",
                        re.IGNORECASE)
CPU_FLAG = re.compile(r"(^|_)(no_cuda|no_gpu|cpu|use_cpu|cpu_only|disable_cuda|force_cpu)$",
                      re.IGNORECASE)
# (`enable_fsdp` and `use_deepspeed` switch sharded multi-process training on, as `ddp` does)
RANK_WORDS = re.compile(r"rank|world|distributed|ddp|fsdp|deepspeed|is_initialized|n_?gpus?$|num_gpus|"
                        r"is_main", re.IGNORECASE)
# A switch that turns multi-process training on (`args.distributed`, `enable_fsdp`, `use_ddp`,
# `multi_gpu`): its first arm runs in every process, its `else` in one.
DISTRIBUTED_SWITCH = re.compile(r"(^|_)(distributed|ddp|fsdp|deepspeed|multigpus?)(_|$)|"
                                r"^((use|enable|is)_)*multi_gpus?$", re.IGNORECASE)
# The number of this process among its job's (`rank`, `local_rank`, `dist.get_rank()`), not their
# count: a path built from it names a file of each rank's own.
RANK_NAME = re.compile(r"^(get_)?(local_|global_|process_)?rank(_id|_idx|_index)?$", re.IGNORECASE)
# A learning-rate scheduler (`scheduler`, `lr_scheduler`, `sched`): its state is numbers, no tensors.
SCHEDULER_NAME = re.compile(r"(^|_)(lr_?)?sched(uler)?s?$", re.IGNORECASE)
TEST_NAME = re.compile(r"^_*test|tests?$|testcase$", re.IGNORECASE)
# `parallelize()` and `class DataParallelNet` spread a model over several GPUs: CUDA by purpose;
# so does `low_vram_shift()`, which moves parts of a model in and out of GPU memory.
CUDA_PURPOSE = re.compile(r"cuda|gpu|nccl|parallel(?!ism)|vram", re.IGNORECASE)
# A parameter naming the GPU to use (`gpu_id`, `cuda_device`): the function runs on a GPU.
GPU_PARAMETER = re.compile(r"^(gpu|gpu_ids?|cuda_device|cuda_id|gpu_index)$", re.IGNORECASE)
DTYPE_NAME = re.compile(r"(^|_)dtype$|^(float|half|double|bfloat16|long|int)\d*$", re.IGNORECASE)


@lru_cache(maxsize=4096)
def names_loader(name: str) -> bool:
    return LOADER_NAME.search(last_part(name)) is not None


@lru_cache(maxsize=4096)
def names_model(name: str) -> bool:
    part = last_part(name)
    return MODEL_NAME.search(part) is not None and TENSOR_WORDS.search(part) is None


@lru_cache(maxsize=4096)
def names_loss(name: str) -> bool:
    return LOSS_NAME.match(last_part(name)) is not None


@lru_cache(maxsize=4096)
def names_scheduler(name: str) -> bool:
    return SCHEDULER_NAME.search(last_part(name)) is not None


@lru_cache(maxsize=4096)
def names_device(name: str) -> bool:
    """A name for the device the code trains on (`device`, `args.device`, `gpu_id`); not one
    that says it is the CPU or where data came from (`cpu_device`, `input_device`)."""
    part = last_part(name)
    return DEVICE_NAME.search(part) is not None and HOST_DEVICE_NAME.search(part) is None


@lru_cache(maxsize=4096)
def names_object_batch(name: str) -> bool:
    return OBJECT_BATCH_NAME.search(last_part(name)) is not None


@lru_cache(maxsize=4096)
def device_flag(name: str) -> Optional[bool]:
    """True: the flag chooses the accelerator; False: it chooses the CPU; None: neither."""
    part = last_part(name)
    if CPU_FLAG.search(part):
        return False
    if ACCEL_FLAG.search(part):
        return True
    return None


@lru_cache(maxsize=4096)
def names_rank(name: str) -> bool:
    return not name.startswith("<") and RANK_WORDS.search(name) is not None


def last_part(name: str) -> str:
    """The last name of `self.train_loader`; nothing for a made-up name (`<device>`: what an
    unknown call that was handed a device returns), which no convention reads."""
    if name.startswith("<"):
        return ""
    return name.rsplit(".", 1)[-1]


# Words that make a condition devlint cannot evaluate a possible guard: it may be about the
# device (`self.use_gpu`, `is_npu_available()`, `cfg.accelerator == "gpu"`, `world_size > 1`).
DEVICE_WORDS = re.compile(
    r"cuda|gpu|device|accel|avail|xpu|npu|mps|hpu|xla|tpu|nccl|dist|rank|world|parallel|"
    r"fsdp|ddp|deepspeed|cudnn|backend|amp$|^amp|fp16|bf16|half|cpu|multiprocess|spawn|launch|env"
)
# Calls whose result is the same on a machine with a GPU and one without (`len(x) > 1`,
# `os.path.exists(ckpt)`, `isinstance(x, list)`): a condition made of them guards nothing.
SAME_ON_EVERY_MACHINE = frozenset({
    "len", "isinstance", "issubclass", "hasattr", "callable", "any", "all", "bool", "int", "float",
    "str", "type", "exists", "isfile", "isdir", "startswith", "endswith", "lower", "upper", "strip",
    "split", "keys", "values", "items", "is_file", "is_dir", "max", "min", "abs", "round", "sum",
    "dim", "size", "numel", "ndimension", "isnan", "isinf", "is_tensor", "is_grad_enabled",
})
# Calls that only show their arguments, or declare a field's default (`attr.ib(default=...)`,
# `dataclasses.field(default=...)`): a device named in them places nothing.
MESSAGE_CALLS = frozenset({"print", "repr", "info", "debug", "warning", "warn",
                           "critical", "exception", "echo", "set_description",
                           "set_postfix", "ib", "attrib", "field"})
