"""What devlint knows of torch and its ecosystem, as data: where each call puts its result,
which calls need their tensors on one device, which arguments must stay on the host, which
wrappers move inputs themselves. Names are qualified (`torch.nn.Linear`), as the imports of the
file resolve them; `evaluate` reads these tables and has no torch names of its own.
"""
from __future__ import annotations

import math
import re

# --- making tensors -------------------------------------------------------------------------

# torch.<name>(...) makes a tensor on the CPU unless `device=` says otherwise.
FACTORIES = frozenset(
    {
        "zeros", "ones", "full", "empty", "randn", "rand", "randint", "randperm", "arange",
        "range", "eye", "linspace", "logspace", "tensor", "as_tensor", "from_numpy", "Tensor",
        "FloatTensor", "LongTensor", "DoubleTensor", "IntTensor", "BoolTensor", "ByteTensor",
        "HalfTensor", "tril_indices", "triu_indices", "normal", "bernoulli", "multinomial",
        "empty_strided", "frombuffer", "hann_window", "hamming_window", "scalar_tensor",
    }
)
# Reductions that, without `dim`, answer one number (a 0-dim tensor).
FULL_REDUCTIONS = frozenset({"sum", "mean", "var", "std", "prod", "max", "min", "amax", "amin", "norm",
                             "median", "all", "any", "nansum", "nanmean", "count_nonzero",
                             "argmax", "argmin"})  # (`torch.argmin(d)`: one index, 0-dim)
# The same along the axes they are given (`t.mean(0)`, `t.sum(dim=(1, 2))`): one dimension fewer
# per axis. `max`, `min` and `median` answer (values, indices) there, no tensor.
AXIS_REDUCTIONS = (FULL_REDUCTIONS - {"max", "min", "median"}) | {"logsumexp"}
# The calls that make a loop a training loop (`loss.backward()`, `optimizer.step()`).
TRAINING_METHODS = frozenset({"backward", "step", "zero_grad"})
# Samplers that are factories only without a tensor argument (`multinomial(probs)` samples where
# `probs` is). Only `normal` has a form of numbers alone (`normal(0.0, 1.0, size)`); the others
# always draw from an input tensor, so they never make a CPU tensor from nothing.
SAMPLERS = frozenset({"normal", "bernoulli", "multinomial", "poisson"})
NUMBER_SAMPLERS = frozenset({"normal"})
# Annotations that say a parameter is a tensor (`x: Tensor`, `torch.FloatTensor`).
TENSOR_ANNOTATIONS = ("Tensor", "FloatTensor", "LongTensor")
# Packages that need a CUDA GPU to import or use: past their import, code runs only with one.
CUDA_ONLY_PACKAGES = frozenset({"tensorrt", "pycuda", "cupy", "torch_tensorrt", "torch2trt", "flash_attn",
                                "apex", "triton", "xformers", "cuda", "nvidia", "unsloth",
                                "setGPU",  # setGPU picks the freest GPU through nvidia-smi
                                # point-cloud kernels built only for CUDA (PointNet++'s, Point
                                # Transformer's): no CPU implementation behind them
                                "pointnet2_ops", "pointops"})
# Of those, the ones whose import itself fails on a machine without a GPU (a build for CUDA
# only, a probe of the driver): a project module importing one at module level cannot be
# imported there either (`Summaries.gpu_on_import`). xformers, triton, apex and cupy import on
# a CPU-only machine; only their kernels need the GPU.
IMPORT_NEEDS_GPU = frozenset({"flash_attn", "tensorrt", "torch_tensorrt", "unsloth", "setGPU",
                              "pointnet2_ops", "pointops"})
# Compiled CUDA extensions named for it (`knn_cuda`, `pointnet2_cuda`, `cuda_ext`): CUDA-only too.
CUDA_EXTENSION_NAME = re.compile(r"^(\w+_cuda|cuda_\w+)$")


def import_needs_gpu(module: str) -> bool:
    """`import my_lib_cuda`, `import flash_attn.ops`: an absolute import that fails on a machine
    without a GPU."""
    root = module.split(".", 1)[0]
    return root in IMPORT_NEEDS_GPU or CUDA_EXTENSION_NAME.match(root) is not None


def loads_extension(module: str, extensions, resolves) -> bool:
    """Whether an absolute import of `module` loads one of the project's own CUDA extensions
    (`ModuleFiles.cuda_extensions`): the extension (`Align1D`, `pointnet2._ext`) or a module
    below it, or the package a dotted one is built into (`nms` of `CUDAExtension('nms.details')`)
    where that package is not a module of the project (`resolves(name)` is false): then it is
    the package the extension's `setup.py` installs, which exists only where nvcc built it."""
    for extension in extensions:
        if module == extension or module.startswith(extension + "."):
            return True
        if extension.startswith(module + ".") and not resolves(module):
            return True
    return False
# Building a C++ extension: with CUDA sources (`sources=["wkv.cu", ...]`, `cuda_sources=`,
# `extra_cuda_cflags=`, `with_cuda=True`) it needs nvcc and a GPU, so code past it runs only
# with one (see `builds_cuda`).
EXTENSION_BUILDS = frozenset({"torch.utils.cpp_extension.load", "torch.utils.cpp_extension.load_inline"})
# Packages that give each worker process its own GPU as device 0 (Ray's num_gpus).
PER_PROCESS_GPU_PACKAGES = frozenset({"ray"})
# Contexts where tensors are fakes or meta tensors: a device literal allocates nothing.
FAKE_CONTEXTS = re.compile(r"(^|\.)(FakeTensorMode|init_empty_weights|meta_device)$")
# torch.<name>_like(t): where `t` is, unless `device=` says otherwise.
LIKE_FACTORIES = frozenset(
    {"zeros_like", "ones_like", "empty_like", "full_like", "rand_like", "randn_like", "randint_like"}
)
# Tensor methods making a new tensor where the receiver is.
NEW_METHODS = frozenset({"new_zeros", "new_ones", "new_empty", "new_full", "new_tensor"})
# torch.cuda.<Type>: the legacy typed constructors; they put data on the GPU.
LEGACY_CUDA_TYPES = frozenset(
    {"FloatTensor", "LongTensor", "DoubleTensor", "IntTensor", "BoolTensor", "ByteTensor",
     "HalfTensor", "ShortTensor", "CharTensor", "BFloat16Tensor"}
)
LEGACY_HOST_TYPES = LEGACY_CUDA_TYPES | {"Tensor"}
# The dtype each legacy CPU tensor type stands for (DEV021's fix keeps the device).
LEGACY_TYPE_DTYPES = {
    "FloatTensor": "float32", "DoubleTensor": "float64", "HalfTensor": "float16",
    "BFloat16Tensor": "bfloat16", "LongTensor": "int64", "IntTensor": "int32",
    "ShortTensor": "int16", "CharTensor": "int8", "ByteTensor": "uint8", "BoolTensor": "bool",
}

# Copies of an object: a module's copy has its own parameters, where the original's are.
COPIES = frozenset({"copy.deepcopy"})
# Wrappers that deep-copy the module they are given, on its device unless a `device` is given.
COPYING_WRAPPERS = frozenset({"torch.optim.swa_utils.AveragedModel"})
# torch functions that run a module they are given where it is (they move only its inputs).
MODULE_KEEPING_CALLS = frozenset({"torch.optim.swa_utils.update_bn"})
# Optimizer classes by their last name (torch.optim's, and the usual third-party ones, DEV017).
OPTIMIZER_CLASSES = re.compile(
    r"^(Adam[A-Za-z]*|SGD|RMSprop|Adagrad|Adadelta|Adamax|NAdam|RAdam|LBFGS|SparseAdam|ASGD"
    r"|Rprop|Lion|Adafactor|LAMB|Lamb|LARS|Lars|Novograd|FusedAdam|FusedLAMB|AdamW8bit"
    r"|Adam8bit|Sophia\w*|Shampoo|Muon)$")
# Metric packages whose classes are modules holding state (torchmetrics' `Metric`).
METRIC_PACKAGES = ("torchmetrics.",)

# --- operations that need one device ---------------------------------------------------------

# torch functions that answer a Python bool or number, not a tensor (`torch.equal(a, b)`): the
# answer meets nothing, whatever device its arguments are on.
PYTHON_RESULT_FUNCTIONS = frozenset(
    {"equal", "allclose", "is_tensor", "is_nonzero", "is_floating_point", "is_complex",
     "is_same_size", "numel", "is_storage"}
)
# torch.<name>(...) whose tensor operands must all be on one device.
SAME_DEVICE_FUNCTIONS = frozenset(
    {
        "cat", "concat", "concatenate", "stack", "hstack", "vstack", "dstack", "where", "matmul",
        "mm", "bmm", "baddbmm", "addmm", "einsum", "add", "sub", "mul", "div", "true_divide",
        "maximum", "minimum", "masked_select", "gather", "index_select", "cdist", "dot", "outer",
        "cross", "lerp", "pow", "atan2", "eq", "ne", "lt", "le", "gt", "ge", "logical_and",
        "logical_or", "bucketize", "searchsorted", "take_along_dim", "cosine_similarity",
        "pairwise_distance", "linear", "embedding", "conv1d", "conv2d", "conv3d", "bilinear",
        "grad",  # torch.autograd.grad: outputs and grad_outputs
        "stft", "istft",  # the signal and its `window=`
        "scaled_dot_product_attention",  # F.: queries, keys, values and the mask
        "conv_transpose1d", "conv_transpose2d", "conv_transpose3d", "layer_norm", "group_norm",
        "grid_sample", "tensordot", "addcmul", "addcdiv",
        "assert_close",  # torch.testing: "The values for attribute 'device' do not match"
        "meshgrid", "cartesian_prod",  # "meshgrid expects all tensors to have the same device"
    }
)
# Tensor methods whose tensor arguments must be on the receiver's device.
SAME_DEVICE_METHODS = frozenset(
    {
        "add", "sub", "mul", "div", "matmul", "mm", "bmm", "masked_fill", "masked_fill_",
        "gather", "index_select", "scatter", "scatter_", "scatter_add", "scatter_add_", "add_",
        "mul_", "sub_", "div_", "where", "masked_select", "maximum", "minimum", "eq", "ne",
        "lt", "le", "gt", "ge", "dot", "index_add", "index_add_", "index_copy", "index_copy_",
        "masked_scatter", "masked_scatter_", "lerp", "lerp_", "pow", "expand_as", "type_as", "stft",
    }
)
# Arguments that are allowed on another device than the data (metadata, copies).
CROSS_DEVICE_METHODS = frozenset({"copy_", "expand_as", "view_as", "reshape_as", "type_as"})

# Tensor methods returning a tensor where the receiver is.
PRESERVING_METHODS = frozenset(
    {
        "view", "reshape", "float", "double", "half", "bfloat16", "long", "int", "bool", "byte",
        "char", "short", "squeeze", "unsqueeze", "permute", "transpose", "flatten", "contiguous",
        "clone", "detach", "t", "expand", "repeat", "narrow", "chunk", "split", "view_as",
        "reshape_as", "requires_grad_", "softmax", "log_softmax", "argmax", "argmin", "max",
        "min", "mean", "sum", "prod", "std", "var", "norm", "sigmoid", "tanh", "relu", "exp",
        "log", "abs", "sqrt", "clamp", "clamp_", "masked_fill", "squeeze_", "unsqueeze_",
        "to_dense", "fill_", "zero_", "scatter_", "normal_", "uniform_", "random_", "bernoulli_",
        "index_fill_", "masked_fill_", "copy_", "add_", "mul_", "sub_", "div_", "pin_memory",
        "round", "floor", "ceil", "neg", "sign", "cumsum", "cumprod", "topk", "sort", "flip",
        "roll", "tril", "triu", "diag", "unfold", "repeat_interleave", "square", "pow", "add",
        "sub", "mul", "div", "matmul", "mm", "bmm", "gather", "index_select", "where",
        "masked_select", "expand_as", "cpu_", "detach_", "retain_grad", "nan_to_num",
        "logsumexp", "any", "all", "eq", "ne", "lt", "le", "gt", "ge", "isnan", "isinf",
        "nonzero", "unique", "type_as", "long_", "abs_", "exp_", "log_", "sqrt_", "T", "mT",
    }
)
# Tensor methods no NumPy array, list, dict or image has: called on what a model answered (which
# may be anything), they prove it a tensor. (A `dim=` keyword proves it too: NumPy says `axis=`.)
TENSOR_ONLY_METHODS = frozenset(
    {"detach", "softmax", "log_softmax", "sigmoid", "relu", "float", "long", "int", "bool", "half",
     "double", "bfloat16", "byte", "unsqueeze", "permute", "contiguous", "expand", "masked_fill",
     "view_as", "type_as", "clone", "requires_grad_", "logsumexp", "nan_to_num"}
)
# Tensor methods whose result is a Python value or lives on the host.
HOST_RESULT_METHODS = frozenset(
    {"item", "tolist", "size", "dim", "numel", "ndimension", "nelement", "element_size",
     "get_device", "is_contiguous", "data_ptr", "stride", "storage_offset", "is_floating_point"}
)
# Attributes of a tensor that are tensors where it is.
PRESERVING_ATTRIBUTES = frozenset({"data", "grad", "T", "mT", "H", "real", "imag"})
SCALAR_ATTRIBUTES = frozenset({"shape", "dtype", "ndim", "requires_grad", "is_cuda", "layout",
                               "is_leaf", "grad_fn", "names"})

# --- modules ---------------------------------------------------------------------------------

# torch.nn.<Capitalised>(...) is a module; these are not modules (or hold no parameters that a
# move could forget, which is all DEV009 asks).
NOT_MODULES = frozenset({"Parameter", "ParameterList", "ParameterDict", "Module", "init"})
MODULE_CONTAINERS = frozenset({"Sequential", "ModuleList", "ModuleDict"})
# The bare module base: it makes no state of its own (a torch layer's base makes its weight).
MODULE_BASES = frozenset({"torch.nn.Module", "torch.nn.modules.module.Module", "object",
                          "builtins.object"})
# torch layers whose `__init__` builds their state by calling this method of `self` (a subclass's
# override of it runs there).
RESETTING_LAYERS = {
    **dict.fromkeys(("Linear", "Bilinear", "Conv1d", "Conv2d", "Conv3d", "ConvTranspose1d",
                     "ConvTranspose2d", "ConvTranspose3d", "Embedding", "EmbeddingBag", "BatchNorm1d",
                     "BatchNorm2d", "BatchNorm3d", "InstanceNorm1d", "InstanceNorm2d", "InstanceNorm3d",
                     "SyncBatchNorm", "LayerNorm", "GroupNorm", "RMSNorm", "RNN", "LSTM", "GRU",
                     "RNNCell", "LSTMCell", "GRUCell"), "reset_parameters"),
    "MultiheadAttention": "_reset_parameters", "Transformer": "_reset_parameters",
}
PARAMETERS = frozenset({"torch.nn.Parameter", "torch.nn.parameter.Parameter",
                        "torch.nn.parameter.Buffer", "torch.nn.Buffer"})
PARAMETER_CONTAINERS = frozenset({"torch.nn.ParameterList", "torch.nn.ParameterDict"})
# Modules without parameters or buffers: nothing of theirs needs moving (DEV009).
STATELESS_MODULES = re.compile(
    r"^(ReLU6?|GELU|SiLU|Mish|Tanh|Sigmoid|Softplus|Softmax|LogSoftmax|ELU|SELU|CELU|LeakyReLU"
    r"|Hardswish|Hardtanh|Hardsigmoid|Identity|Flatten|Unflatten|(Adaptive)?(Max|Avg)Pool\dd"
    r"|Dropout\d?d?|AlphaDropout|Upsample|PixelShuffle|PixelUnshuffle|ZeroPad\dd|ConstantPad\dd)$"
)
# Loss classes whose first positional argument is the class weight.
WEIGHT_FIRST_LOSSES = frozenset({"CrossEntropyLoss", "NLLLoss", "BCELoss", "BCEWithLogitsLoss"})
# Losses whose `weight` and `pos_weight` broadcast against the batch: a 0-dim one is legal
# (`BCEWithLogitsLoss(torch.tensor(neg / pos))`), so only a weight proven to have a dimension
# is a CPU weight the device's logits cannot meet. (A class weight, CrossEntropyLoss's, is one
# value per class: never 0-dim.)
BROADCAST_WEIGHT_LOSSES = frozenset({"BCELoss", "BCEWithLogitsLoss"})
WEIGHT_KEYWORDS = ("weight", "pos_weight")
FUNCTIONAL_LOSSES = frozenset(
    {
        "cross_entropy", "nll_loss", "mse_loss", "l1_loss", "smooth_l1_loss", "huber_loss",
        "binary_cross_entropy", "binary_cross_entropy_with_logits", "kl_div", "ctc_loss",
        "poisson_nll_loss", "gaussian_nll_loss", "cosine_embedding_loss", "hinge_embedding_loss",
        "margin_ranking_loss", "multilabel_margin_loss", "multilabel_soft_margin_loss",
        "multi_margin_loss", "soft_margin_loss", "triplet_margin_loss",
        "triplet_margin_with_distance_loss",
    }
)
# Wrappers that take a module and move the inputs of each call themselves (qualified names).
# DistributedDataParallel does so only with `device_ids` (then to device_ids[0]).
INPUT_MOVING_WRAPPERS = frozenset(
    {
        "torch.nn.DataParallel", "torch.nn.parallel.DataParallel",
        "torch.distributed.fsdp.FullyShardedDataParallel",
        "torch.nn.parallel.data_parallel",
    }
)
DDP = frozenset({"torch.nn.parallel.DistributedDataParallel",
                 "torch.nn.parallel.distributed.DistributedDataParallel"})
# Layers built around a tensor they are given (the weight), where that tensor is.
LAYERS_FROM_TENSORS = frozenset(f"torch.nn.{layer}.from_pretrained" for layer in ("Embedding", "EmbeddingBag")) | \
    frozenset(f"torch.nn.modules.sparse.{layer}.from_pretrained" for layer in ("Embedding", "EmbeddingBag"))
# Wrappers that return the same module, where it is.
SAME_MODULE_WRAPPERS = frozenset({"torch.compile", "torch.jit.script", "torch.jit.trace",
                                  "torch.jit.freeze", "torch.jit.optimize_for_inference",
                                  "torch.nn.SyncBatchNorm.convert_sync_batchnorm",
                                  "torch.nn.utils.weight_norm", "torch.nn.utils.spectral_norm"})
# Calls that run a module once on example inputs (the keyword naming them): tracing, export.
TRACING_CALLS = {"torch.jit.trace": "example_inputs", "torch.onnx.export": "args"}
# Methods of an accelerator object that return what they are given, prepared for the device:
# modules that move their inputs, loaders that yield device batches (accelerate, Fabric).
PREPARE_METHODS = frozenset({"prepare", "prepare_model", "prepare_data_loader", "setup",
                             "setup_module", "setup_dataloaders"})
# Methods of an accelerator object that return the module a prepared one wraps (on its device).
UNWRAP_METHODS = frozenset({"unwrap_model"})
# Model methods that replace the classifier head with a new layer made on the CPU (timm's).
HEAD_RESETS = frozenset({"reset_classifier"})
# The classes whose objects' `prepare`/`setup` place models and loaders.
ACCELERATORS = frozenset({"accelerate.Accelerator", "accelerate.accelerator.Accelerator",
                          "lightning.Fabric", "lightning.fabric.Fabric", "lightning_fabric.Fabric"})
# Methods of an accelerator object that gather or reduce tensors across processes: the result
# is on the device its input was on (a tuple of tensors gives the same tuple, gathered).
GATHER_METHODS = frozenset({"gather", "gather_for_metrics", "reduce", "pad_across_processes",
                            "all_gather"})
# Base classes whose instances a framework moves, with their batches (Lightning).
FRAMEWORK_MODULES = re.compile(r"(^|\.)(LightningModule|LightningLite)$")
# Lightning's callback base: its hooks run in the trainer's loop, beside the module's.
# Lightning's `Trainer`, by any of its import paths.
LIGHTNING_TRAINER = re.compile(r"^(lightning|pytorch_lightning)\.(pytorch\.)?(trainer\.(trainer\.)?)?Trainer$")
FRAMEWORK_CALLBACKS = re.compile(r"^(lightning|pytorch_lightning)\.(\w+\.)*Callback$")
# Trainer classes that place the model and each batch themselves (transformers' `Trainer` and
# its subclasses, trl's): the hooks below get the model on the device, and `compute_loss` and
# `training_step` get inputs `_prepare_inputs` already moved; `prediction_step` gets them as the
# loader gave them and moves them with `self._prepare_inputs(inputs)`.
TRAINER_CLASSES = re.compile(r"^(transformers|trl)\.(\w+\.)*\w*Trainer$")
TRAINER_HOOKS = {"compute_loss": True, "training_step": True, "prediction_step": False}
TRAINER_PREPARE_METHODS = frozenset({"_prepare_inputs", "_prepare_input"})
# The trainer's own evaluation step: `super().prediction_step(...)` of a subclass hands back
# (loss, logits, labels) of the moved model and inputs, on the device.
TRAINER_PREDICTION_STEP = "prediction_step"
# Base classes of other libraries that are `nn.Module`s (PyG's message-passing layers).
THIRD_PARTY_MODULES = re.compile(r"^torch_geometric\.nn\.(\w+\.)*MessagePassing$")
# Layer classes of other libraries, `nn.Module`s by their package: PyG's layers, pools, norms
# and models (its `fx` helpers and its input-scattering `DataParallel` are not such layers).
THIRD_PARTY_LAYERS = re.compile(
    r"^torch_geometric\.nn\.(?!fx\.)(\w+\.)*(?!DataParallel$)[A-Z]\w*$|"
    # transformers' models (`BertModel(config)`, `...ForSequenceClassification`) and
    # torchvision's model and op classes (`FastRCNNPredictor`, `ResNet`, `FeaturePyramidNetwork`)
    r"^transformers\.(\w+\.)*[A-Z]\w*(Model|For[A-Z]\w*)$|"
    r"^torchvision\.(models|ops)\.(\w+\.)*(?!\w*Weights$)(?!\w*Enum$)[A-Z]\w*$")
# torchvision's model builders (`torchvision.models.resnet18(weights=None)`,
# `detection.fasterrcnn_resnet50_fpn(...)`): each returns a model, on the CPU.
MODEL_BUILDERS = re.compile(
    r"^torchvision\.models\.(\w+\.)*(?!get_|list_)[a-z]\w*\d\w*$|"
    r"^torchvision\.models\.(\w+\.)*(?!get_|list_)[a-z]+_\w+$")
# Hooks the framework calls once it has moved the module (Lightning's `on_fit_start`,
# `on_validation_epoch_end`, `on_train_batch_end`, ...; not `setup` or `prepare_data`).
FRAMEWORK_HOOKS = re.compile(r"^on_(fit|train|validation|test|predict)_\w+$|"
                             r"^on_(before|after)_(backward|optimizer_step|zero_grad)$")
# Module methods that return the module itself.
SELF_RETURNING_METHODS = frozenset({"train", "eval", "requires_grad_", "apply", "float",
                                    "double", "half", "bfloat16", "share_memory",
                                    "zero_grad"})
PARAMETER_METHODS = frozenset({"parameters", "buffers"})
# Module methods that take tensors without computing on them.
MODULE_BOOKKEEPING = frozenset({"load_state_dict", "register_parameter", "register_buffer",
                                "add_module", "register_module", "set_extra_state", "copy_",
                                "register_forward_hook", "register_forward_pre_hook",
                                "register_full_backward_hook", "apply", "__setattr__", "__getattr__"})
NAMED_PARAMETER_METHODS = frozenset({"named_parameters", "named_buffers"})

# --- data ------------------------------------------------------------------------------------

# Loaders: what they yield lives on the host (collate builds CPU tensors; workers cannot use
# CUDA), unless the dataset already holds device tensors.
LOADERS = frozenset({"torch.utils.data.DataLoader", "torch.utils.data.dataloader.DataLoader"})
# Loaders that yield plain Python lists of samples, for a wrapper that scatters them to the
# devices itself (PyG's `DataListLoader` feeds `torch_geometric.nn.DataParallel`): no batch is
# a tensor to move.
LIST_LOADERS = frozenset({"torch_geometric.data.DataListLoader", "torch_geometric.loader.DataListLoader",
                          "torch_geometric.loader.dataloader.DataListLoader"})
TENSOR_DATASETS = frozenset({"torch.utils.data.TensorDataset",
                             "torch.utils.data.dataset.TensorDataset"})
# Module constants that are numbers (Python floats), never tensors.
NUMERIC_CONSTANTS = {f"{module}.{name}": getattr(math, name) for module in ("math", "numpy", "torch")
                     for name in ("pi", "e", "inf", "nan")} | {"math.tau": math.tau}

# Functions that map a function over a structure's leaves (a batch dict, a tuple of tensors):
# qualname -> (the function's position, the structure's position). What they give is what the
# function gives for the leaves (`tree_map(lambda x: x.to(device), batch)` moves the batch).
TREE_MAPS = {
    "torch.utils._pytree.tree_map": (0, 1), "torch.utils._pytree.tree_map_only": (1, 2),
    "optree.tree_map": (0, 1), "jax.tree_util.tree_map": (0, 1), "jax.tree.map": (0, 1),
    "lightning_utilities.core.apply_func.apply_to_collection": (2, 0),
    "lightning_utilities.apply_to_collection": (2, 0),
    "pytorch_lightning.utilities.apply_func.apply_to_collection": (2, 0),
    "pytorch_lightning.utilities.apply_to_collection": (2, 0),
    "lightning.pytorch.utilities.apply_to_collection": (2, 0),
    "lightning.fabric.utilities.apply_func.apply_to_collection": (2, 0),
}

# Wrappers of an iterable that yield its elements (`tqdm(loader)`), by last name.
PASS_THROUGH_ITERATORS = frozenset({"tqdm", "trange_", "track", "progress_bar", "iter",
                                    "cycle", "islice", "chain_", "Bar"})

# --- devices ---------------------------------------------------------------------------------

# Calls telling whether an accelerator is there: true in the accelerator world, false on a CPU.
AVAILABILITY = re.compile(
    r"^torch\.(cuda|backends\.mps|mps|xpu|accelerator|backends\.cudnn)\.is_available$"
)
# Library calls that take a device name and fall back to the CPU themselves: torchsummary's
# `summary(model, size, device="cuda")` (its default) builds its probe on the CPU when CUDA is
# not available, so a `"cuda"` handed to it places nothing on a machine without a GPU.
SELF_FALLBACK_CALLS = frozenset({"torchsummary.summary", "torchsummary.summary_string",
                                 "torchsummary.torchsummary.summary",
                                 "torchsummary.torchsummary.summary_string"})
# torch.cuda calls that raise without a GPU: code past them runs only with one.
CUDA_REQUIRING = frozenset(
    f"torch.cuda.{name}" for name in (
        "current_device", "set_device", "synchronize", "get_device_name", "get_device_properties",
        "get_device_capability", "memory_allocated", "max_memory_allocated", "memory_reserved",
        "max_memory_reserved", "memory_stats", "mem_get_info", "reset_peak_memory_stats",
        "Stream", "Event", "current_stream", "stream", "init", "get_arch_list", "ipc_collect",
    )
) | {
    # the functional data parallelism raises where there is no accelerator ("device type could
    # not be determined"), unlike the `DataParallel` module, which then runs the module itself
    "torch.nn.parallel.data_parallel", "torch.nn.parallel.data_parallel.data_parallel",
    # NVML, the NVIDIA driver's management library: its start raises where no driver is
    # (`NVMLError_LibraryNotFound`), so a script that opens it runs only with a GPU
    "pynvml.nvmlInit", "pynvml.smi.nvidia_smi.getInstance", "nvidia_smi.nvmlInit",
    "py3nvml.py3nvml.nvmlInit", "py3nvml.nvmlInit",
}
# Whether a process group exists: never, on a machine without a GPU, in a file whose every
# process group is NCCL's (see `Evaluator.nccl_only`).
PG_INITIALIZED = frozenset({"torch.distributed.is_initialized"})
# The process group's backend: "nccl" only where there are GPUs.
GET_BACKEND = frozenset({"torch.distributed.get_backend", "torch.distributed.distributed_c10d.get_backend"})
DEVICE_COUNT = frozenset({"torch.cuda.device_count", "torch.accelerator.device_count",
                          "torch.xpu.device_count"})
ACCELERATOR_KINDS = frozenset({"cuda", "mps", "xpu", "xla", "hip", "npu", "hpu", "meta_"})
DEVICE_LITERAL = re.compile(r"^(cuda|mps|xpu|xla|hpu|npu)(:\d+)?$")
CUDA_LITERAL = re.compile(r"^cuda(:\d+)?$")
FIXED_CUDA_INDEX = re.compile(r"^cuda:(\d+)$")
SET_DEVICE = frozenset({"torch.cuda.set_device"})
DEFAULT_DEVICE_SETTERS = frozenset({"torch.set_default_device", "torch.set_default_tensor_type"})
PROCESS_GROUP = frozenset({"torch.distributed.init_process_group"})
# Collectives that move tensors between ranks (through NCCL: GPU tensors only).
COLLECTIVES = frozenset(f"torch.distributed.{name}" for name in (
    "all_reduce", "reduce", "broadcast", "all_gather", "all_gather_into_tensor", "reduce_scatter",
    "reduce_scatter_tensor", "all_to_all_single", "gather", "scatter"))

# --- leaving torch ---------------------------------------------------------------------------

# Calls that convert a tensor to numpy (and fail on a device tensor), by qualified prefix.
# Base classes of custom autograd functions: `Fn.apply(...)` runs `Fn.forward(ctx, ...)`.
AUTOGRAD_FUNCTIONS = frozenset({"torch.autograd.Function", "torch.autograd.function.Function"})
# torch.nn layers whose answer is not one tensor: recurrent layers and attention answer tuples,
# `Identity` and the containers answer what they were given or what their last layer answers.
# Every other layer of torch.nn refuses what is not a tensor and answers one.
NON_TENSOR_ANSWER_LAYERS = frozenset(
    {"RNN", "LSTM", "GRU", "RNNBase", "MultiheadAttention", "Identity", "Sequential", "ModuleList",
     "ModuleDict", "ParameterList", "ParameterDict", "DataParallel", "DistributedDataParallel",
     "AdaptiveLogSoftmaxWithLoss", "Module"}
)
# torch functions that answer a tuple (or a named tuple) of tensors, not one tensor. Every other
# torch function of tensors (`torch.sigmoid(out)`, `F.softmax(out, -1)`) refuses what is not a
# tensor and answers one: given what a model answered, it proves that a tensor.
TUPLE_RESULT_FUNCTIONS = frozenset(
    {"max", "min", "sort", "topk", "kthvalue", "median", "nanmedian", "mode", "split", "chunk",
     "unbind", "tensor_split", "hsplit", "vsplit", "dsplit", "std_mean", "var_mean", "aminmax",
     "broadcast_tensors", "meshgrid", "frexp", "histogram", "unique", "unique_consecutive", "lu",
     "qr", "svd", "eig", "eigh", "slogdet", "lstsq", "cummax", "cummin", "nonzero", "where",
     "geqrf", "triangular_solve", "svd_lowrank", "pca_lowrank", "lobpcg", "split_with_sizes"}
)
NUMPY_CONVERTERS = frozenset({"numpy.array", "numpy.asarray", "numpy.asanyarray", "numpy.save", "numpy.savetxt"}) | {
    # NumPy functions that make an array of their argument first (`asarray`), where others hand
    # a tensor to its own method (`np.mean(t)` calls `t.mean`): a device tensor refuses.
    f"numpy.{name}" for name in (
        "concatenate", "stack", "vstack", "hstack", "column_stack", "digitize", "bincount",
        "histogram", "histogram_bin_edges", "unique", "percentile", "quantile", "median", "sort",
        "isin", "interp", "corrcoef", "cov", "polyfit", "average", "nanmean", "nanmedian",
        "nanpercentile", "allclose", "isclose", "array_equal", "savez", "savez_compressed")}
HOST_ONLY_PREFIXES = ("sklearn.", "matplotlib.", "pandas.", "scipy.", "PIL.")
# Arguments that must stay on the host whatever the data's device: (callee, position, keyword).
HOST_ARGUMENT_POSITIONS = {
    "torch.nn.utils.rnn.pack_padded_sequence": (1, "lengths"),
    "torch.nn.utils.rnn.pad_packed_sequence": (3, "total_length"),
}

# --- files -----------------------------------------------------------------------------------

LOAD = frozenset({"torch.load", "torch.hub.load_state_dict_from_url"})
# The loader of a scripted program: its `map_location` places the whole model.
PROGRAM_LOAD = frozenset({"torch.jit.load"})
SAVE = frozenset({"torch.save"})
PATH_JOINERS = frozenset({"os.path.join", "posixpath.join", "pathlib.Path",
                          "pathlib.PurePath"})

# --- Python ----------------------------------------------------------------------------------

SCALAR_BUILTINS = frozenset({"len", "float", "int", "bool", "str", "round", "abs", "hash",
                             "isinstance", "hasattr", "callable", "print", "repr", "format",
                             "ord", "chr", "id", "input", "open", "type", "issubclass"})
# Reads of an environment variable by name (see `evaluate._environment_setting`).
ENVIRONMENT_READS = frozenset({"os.getenv", "os.environ.get"})
EXITS = frozenset({"sys.exit", "exit", "quit", "os._exit", "pytest.skip", "pytest.exit",
                   "unittest.SkipTest"})
SKIP_DECORATORS = re.compile(r"(^|\.)(skipIf|skipUnless|skipif|skip_if|skip_unless)$")
EXPECT_RAISE = re.compile(r"(^|\.)(raises|assertRaises|assertRaisesRegex|assertWarns)$")
NO_GRAD = frozenset({"torch.no_grad", "torch.inference_mode", "torch.enable_grad_"})
DEVICE_CONTEXTS = frozenset({"torch.device", "torch.cuda.device"})


def last(qualname: str) -> str:
    return qualname.rsplit(".", 1)[-1]


def is_torch(qualname: str) -> bool:
    return qualname == "torch" or qualname.startswith("torch.")


def factory_name(qualname: str) -> str:
    """`zeros` for `torch.zeros`; '' for anything else (`numpy.zeros` is no torch tensor)."""
    if qualname.count(".") == 1 and qualname.startswith("torch.") and last(qualname) in FACTORIES:
        return last(qualname)
    return ""


def is_module_class(qualname: str) -> bool:
    """`torch.nn.Linear`, `torch.nn.modules.conv.Conv2d`, PyG's `torch_geometric.nn.GCNConv`;
    not `torch.nn.Parameter`."""
    if THIRD_PARTY_LAYERS.match(qualname):
        return True
    if not qualname.startswith("torch.nn.") or qualname.startswith("torch.nn.functional"):
        return False
    name = last(qualname)
    return name[:1].isupper() and name not in NOT_MODULES and not name.endswith("Tensor")


def legacy_host_type(qualname: str) -> str:
    """`torch.FloatTensor` -> `FloatTensor`: a legacy CPU tensor type ('' for anything else)."""
    name = last(qualname)
    return name if qualname == f"torch.{name}" and name in LEGACY_TYPE_DTYPES else ""


def is_metric_class(qualname: str) -> bool:
    """`torchmetrics.Accuracy`, `torchmetrics.classification.MulticlassF1Score`."""
    return qualname.startswith(METRIC_PACKAGES) and last(qualname)[:1].isupper() and \
        ".functional." not in qualname


def is_loss_class(qualname: str) -> bool:
    return is_module_class(qualname) and last(qualname).endswith("Loss")


def is_functional_loss(qualname: str) -> bool:
    return qualname.startswith("torch.nn.functional.") and last(qualname) in FUNCTIONAL_LOSSES


def is_framework_module(qualname: str) -> bool:
    return FRAMEWORK_MODULES.search(qualname) is not None


# Constructors a model class inherits from its framework, which build it from saved settings
# and weights on the CPU: Lightning's `load_from_checkpoint`, transformers' `from_pretrained`.
RESTORING_CONSTRUCTORS = frozenset({"load_from_checkpoint", "from_pretrained"})
