"""Snippets run under shadow CUDA by run_cases.py, each in a fresh namespace.

GOOD: idioms a real GPU accepts; they must run clean under the shadow.
BAD: device bugs; they must raise PyTorch's own error. A line marked `# origin` is where the
CPU tensor was created; the error's devlint_cpu_origin must point at it.
Every snippet starts after PREAMBLE. No torch import here: pytest only reads the strings.
"""
from __future__ import annotations

from dataclasses import dataclass

PREAMBLE = "import torch, torch.nn as nn, torch.nn.functional as F\n"
SAME = "Expected all tensors to be on the same device, but found at least two devices, "


@dataclass(frozen=True)
class Bad:
    source: str
    message: str  # the first line of the error, exactly
    error: str = "RuntimeError"


GOOD = {
    "linear_sgd_loop": """
model = nn.Linear(4, 1).to('cuda')
opt = torch.optim.SGD(model.parameters(), lr=0.1)
x, y = torch.randn(16, 4), torch.randn(16, 1)
for _ in range(3):
    xb, yb = x.to('cuda'), y.to('cuda')
    loss = F.mse_loss(model(xb), yb)
    opt.zero_grad(); loss.backward(); opt.step()
assert loss.device.type == 'cuda' and model.weight.grad.is_cuda
""",
    "device_object_everywhere": """
device = torch.device('cuda')
model = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 2)).to(device)
out = model(torch.randn(3, 4).to(device))
assert out.device == torch.device('cuda:0') and out.device.type == 'cuda'
""",
    "is_available_ternary": """
device = 'cuda' if torch.cuda.is_available() else 'cpu'
assert device == 'cuda' and torch.cuda.device_count() == 1
model = nn.Linear(2, 2).to(device)
model(torch.ones(1, 2, device=device)).sum().backward()
""",
    "cuda_method_model_and_batch": """
model = nn.Linear(3, 3).cuda()
out = model(torch.randn(2, 3).cuda())
assert out.is_cuda and out.get_device() == 0
""",
    "factory_device_kwarg": """
x = torch.randn(4, 4, device='cuda')
z = torch.zeros(4, device='cuda') + torch.ones(4, device=torch.device('cuda', 0)) + torch.arange(4, device=x.device)
e = torch.eye(4, device='cuda') @ x + torch.full((4, 4), 2.0, device='cuda') + torch.rand(4, 4, device=0)
assert z.is_cuda and e.is_cuda and torch.tensor([1, 2], device='cuda').is_cuda
""",
    "like_and_new_factories": """
x = torch.randn(3, 3, device='cuda')
y = torch.zeros_like(x) + torch.ones_like(x) + x.new_zeros(3, 3) + x.new_tensor([1.0, 2.0, 3.0]) + torch.randn_like(x)
assert y.is_cuda and torch.empty_like(x, device='cpu').device.type == 'cpu'
""",
    "zero_dim_cpu_scalar": """
x = torch.randn(5, device='cuda')
y = x * torch.tensor(2.0) + torch.tensor(1.0)
z = torch.where(x > 0, x, torch.tensor(0.0))
assert y.is_cuda and z.is_cuda
""",
    "python_scalars": """
x = torch.randn(5, device='cuda')
y = 2 * x + 1 - x / 3.0
y.clamp_(min=0.0, max=1.0)
assert (y ** 2).is_cuda
""",
    "cpu_index_tensors": """
x = torch.randn(6, 3, device='cuda')
rows = x[torch.tensor([0, 2, 4])]
masked = x[torch.tensor([True, False, True, False, True, False])]
x[torch.tensor([1])] = 0.0
assert rows.is_cuda and masked.is_cuda
""",
    "cross_device_copy": """
a = torch.zeros(3, device='cuda')
b = torch.arange(3.0)
a.copy_(b)
b.copy_(a * 2)
assert a.is_cuda and not b.is_cuda and b.tolist() == [0.0, 2.0, 4.0]
""",
    "pin_memory_non_blocking": """
x = torch.randn(8, 4).pin_memory()
y = x.to('cuda', non_blocking=True)
z = x.cuda(non_blocking=True)
assert y.is_cuda and z.is_cuda
""",
    "adam_and_adamw_foreach": """
for make in (lambda p: torch.optim.Adam(p, lr=1e-2), lambda p: torch.optim.AdamW(p, lr=1e-2, foreach=True),
             lambda p: torch.optim.AdamW(p, lr=1e-2, foreach=False), lambda p: torch.optim.SGD(p, lr=0.1, momentum=0.9, foreach=True)):
    model = nn.Linear(4, 2).to('cuda')
    opt = make(model.parameters())
    for _ in range(2):
        loss = model(torch.randn(8, 4, device='cuda')).pow(2).mean()
        opt.zero_grad(); loss.backward(); opt.step()
    assert all(v.is_cuda for s in opt.state.values() for k, v in s.items() if k != 'step')
""",
    "optimizer_built_before_move": """
model = nn.Linear(4, 2)
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
model.to('cuda')
loss = model(torch.randn(2, 4, device='cuda')).sum()
loss.backward(); opt.step()
assert next(model.parameters()).is_cuda
""",
    "clip_grad_norm": """
model = nn.Sequential(nn.Linear(4, 8), nn.Tanh(), nn.Linear(8, 1)).to('cuda')
model(torch.randn(5, 4, device='cuda')).sum().backward()
norm = torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm=0.5)
torch.nn.utils.clip_grad_value_(model.parameters(), 0.1)
assert norm.is_cuda and f"{norm:.3f}"
""",
    "autograd_grad_penalty": """
critic = nn.Linear(4, 1).to('cuda')
x = torch.randn(6, 4, device='cuda', requires_grad=True)
out = critic(x)
(g,) = torch.autograd.grad(outputs=out, inputs=x, grad_outputs=torch.ones_like(out), create_graph=True)
penalty = ((g.norm(2, dim=1) - 1) ** 2).mean()
penalty.backward()
assert g.is_cuda and critic.weight.grad.is_cuda
""",
    "grad_scaler_and_autocast": """
model = nn.Linear(4, 1).to('cuda')
opt = torch.optim.SGD(model.parameters(), lr=0.1)
scaler = torch.amp.GradScaler('cuda')
for _ in range(2):
    with torch.autocast('cuda'):
        loss = F.mse_loss(model(torch.randn(8, 4, device='cuda')), torch.zeros(8, 1, device='cuda'))
    opt.zero_grad()
    scaler.scale(loss).backward()
    scaler.unscale_(opt)
    torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
    scaler.step(opt); scaler.update()
""",
    "legacy_cuda_amp": """
import warnings
warnings.simplefilter('ignore')
model = nn.Linear(4, 1).cuda()
opt = torch.optim.Adam(model.parameters())
scaler = torch.cuda.amp.GradScaler()
with torch.cuda.amp.autocast():
    loss = model(torch.randn(3, 4).cuda()).sum()
scaler.scale(loss).backward(); scaler.step(opt); scaler.update()
""",
    "lstm_gru_rnn": """
for cls in (nn.LSTM, nn.GRU, nn.RNN):
    rnn = cls(input_size=4, hidden_size=6, num_layers=2, batch_first=True).to('cuda')
    out, _ = rnn(torch.randn(3, 5, 4, device='cuda'))
    out.sum().backward()
    assert out.is_cuda
""",
    "lstm_packed_and_explicit_hidden": """
lstm = nn.LSTM(4, 6, batch_first=True).cuda()
x = torch.randn(3, 5, 4, device='cuda')
packed = nn.utils.rnn.pack_padded_sequence(x, torch.tensor([5, 3, 2]), batch_first=True)
out, (h, c) = lstm(packed)
h0 = torch.zeros(1, 3, 6, device='cuda'); c0 = torch.zeros(1, 3, 6, device='cuda')
out2, _ = lstm(x, (h0, c0))
assert h.is_cuda and out2.is_cuda
""",
    "conv_batchnorm_pool": """
net = nn.Sequential(nn.Conv2d(1, 4, 3, padding=1), nn.BatchNorm2d(4), nn.ReLU(), nn.MaxPool2d(2), nn.Flatten(), nn.Linear(4 * 4 * 4, 3)).to('cuda')
x = torch.randn(2, 1, 8, 8).to('cuda')
loss = F.cross_entropy(net(x), torch.tensor([0, 2]).to('cuda'))
loss.backward()
net.eval()
with torch.no_grad():
    pred = net(x).argmax(dim=1)
assert net[1].running_mean.is_cuda and pred.is_cuda
""",
    "channels_last_and_half": """
x = torch.randn(2, 3, 4, 4).to('cuda', memory_format=torch.channels_last)
h = torch.randn(3).to('cuda', dtype=torch.float16)
d = torch.randn(3).cuda().double()
assert x.is_cuda and h.dtype == torch.float16 and h.is_cuda and d.is_cuda
""",
    "embedding_cuda_indices": """
emb = nn.Embedding(10, 4).to('cuda')
idx = torch.tensor([[1, 2, 3], [4, 5, 6]]).to('cuda')
out = emb(idx).mean()
out.backward()
assert out.is_cuda
""",
    "deepcopy_model_ema": """
import copy
model = nn.Sequential(nn.Linear(4, 4), nn.BatchNorm1d(4)).to('cuda')
ema = copy.deepcopy(model)
with torch.no_grad():
    for pe, p in zip(ema.parameters(), model.parameters()):
        pe.mul_(0.99).add_(p, alpha=0.01)
assert all(isinstance(p, nn.Parameter) and p.is_cuda for p in ema.parameters())
assert ema[1].running_var.is_cuda and ema(torch.randn(3, 4, device='cuda')).is_cuda
""",
    "state_dict_round_trip": """
a = nn.Linear(3, 2).to('cuda'); b = nn.Linear(3, 2).to('cuda')
b.load_state_dict(a.state_dict())
cpu_state = {k: v.cpu() for k, v in a.state_dict().items()}
b.load_state_dict(cpu_state)
assert b.weight.is_cuda and b(torch.ones(1, 3, device='cuda')).is_cuda
""",
    "save_load_map_location": """
import io
model = nn.Linear(3, 2).to('cuda')
opt = torch.optim.Adam(model.parameters()); model(torch.ones(1, 3, device='cuda')).sum().backward(); opt.step()
buf = io.BytesIO(); torch.save({'model': model.state_dict(), 'opt': opt.state_dict()}, buf)
for loc in (None, 'cuda', torch.device('cuda'), 'cpu'):
    buf.seek(0)
    ckpt = torch.load(buf, map_location=loc)
    assert ckpt['model']['weight'].is_cuda == (loc != 'cpu'), loc
    model.load_state_dict(ckpt['model']); opt.load_state_dict(ckpt['opt'])
buf = io.BytesIO(); torch.save(torch.ones(2, device='cuda'), buf); buf.seek(0)
assert (torch.load(buf) + torch.ones(2, device='cuda')).is_cuda
""",
    "save_whole_tensor_list": """
import io
buf = io.BytesIO(); torch.save([torch.ones(2, device='cuda'), torch.zeros(2)], buf); buf.seek(0)
a, b = torch.load(buf, weights_only=True)
assert a.is_cuda and not b.is_cuda
""",
    "fstrings_and_prints": """
loss = torch.tensor(0.25, device='cuda', requires_grad=True) * 2
x = torch.randn(2, 3, device='cuda')
text = f"{loss:.4f} {loss} {x} {loss.item():.2f}"
print(loss, x, repr(x), str(torch.zeros(0, 3, device='cuda')))
assert "device='cuda:0'" in repr(x) and "grad_fn" in repr(loss) and text.startswith('0.5000')
assert repr(nn.Parameter(torch.ones(2, device='cuda'))).startswith('Parameter containing:')
""",
    "item_tolist_cpu_round_trip": """
x = torch.randn(3, device='cuda')
v = x.sum().item(); lst = x.tolist(); back = x.detach().cpu()
assert isinstance(v, float) and len(lst) == 3 and back.device.type == 'cpu'
assert (back.to('cuda') + x).is_cuda and x.cpu().cuda().is_cuda
""",
    "dataloader_workers_shuffle": """
from torch.utils.data import DataLoader, TensorDataset
ds = TensorDataset(torch.randn(64, 4), torch.randint(0, 3, (64,)))
model = nn.Linear(4, 3).to('cuda'); opt = torch.optim.SGD(model.parameters(), lr=0.1)
for xb, yb in DataLoader(ds, batch_size=16, shuffle=True, num_workers=2):
    xb, yb = xb.to('cuda', non_blocking=True), yb.to('cuda', non_blocking=True)
    loss = F.cross_entropy(model(xb), yb)
    opt.zero_grad(); loss.backward(); opt.step()
""",
    "dataloader_pin_memory": """
from torch.utils.data import DataLoader, TensorDataset
ds = TensorDataset(torch.randn(32, 4), torch.randn(32, 1))
model = nn.Linear(4, 1).cuda()
for xb, yb in DataLoader(ds, batch_size=8, shuffle=True, pin_memory=True):
    F.mse_loss(model(xb.cuda()), yb.cuda()).backward()
""",
    "cuda_utilities": """
torch.cuda.manual_seed_all(0); torch.cuda.manual_seed(0)
torch.backends.cudnn.benchmark = True; torch.backends.cudnn.deterministic = True
torch.backends.cuda.matmul.allow_tf32 = False
start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
start.record(); y = torch.randn(4, 4, device='cuda') @ torch.randn(4, 4, device='cuda'); end.record()
torch.cuda.synchronize()
ms = start.elapsed_time(end)
print(torch.cuda.get_device_name(0), torch.cuda.memory_allocated(), torch.cuda.max_memory_allocated(), ms >= 0)
torch.cuda.empty_cache(); torch.cuda.reset_peak_memory_stats()
assert torch.cuda.current_device() == 0 and torch.cuda.get_device_properties(0).total_memory > 0
""",
    "cross_entropy_weight_on_device": """
crit = nn.CrossEntropyLoss(weight=torch.tensor([1.0, 2.0, 3.0]).to('cuda'))
logits = torch.randn(4, 3, device='cuda', requires_grad=True)
crit(logits, torch.tensor([0, 1, 2, 1], device='cuda')).backward()
crit2 = nn.CrossEntropyLoss(weight=torch.tensor([1.0, 2.0, 3.0]))
crit2.to('cuda')
crit2(logits, torch.tensor([0, 1, 2, 1]).cuda())
""",
    "registered_buffer_moves": """
class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.register_buffer('scale', torch.ones(4))
        self.blocks = nn.ModuleList([nn.Linear(4, 4) for _ in range(2)])
    def forward(self, x):
        for b in self.blocks:
            x = b(x)
        return x * self.scale
net = Net().to('cuda')
assert net(torch.randn(2, 4, device='cuda')).is_cuda and net.scale.is_cuda
""",
    "tensor_created_with_device_in_forward": """
class Net(nn.Module):
    def __init__(self):
        super().__init__(); self.fc = nn.Linear(4, 4)
    def forward(self, x):
        mask = torch.ones(x.shape[0], 4, device=x.device)
        noise = torch.randn_like(x)
        return self.fc(x) * mask + noise.new_ones(())
assert Net().to('cuda')(torch.randn(3, 4, device='cuda')).is_cuda
""",
    "tensor_hook_with_cuda_mask": """
w = torch.randn(4, device='cuda', requires_grad=True)
mask = torch.tensor([1.0, 0.0, 1.0, 0.0], device='cuda')
w.register_hook(lambda g: g * mask)
(w * 3).sum().backward()
assert w.grad.is_cuda and w.grad.tolist()[1] == 0.0
""",
    "cuda_generator": """
g = torch.Generator(device='cuda'); g.manual_seed(0)
x = torch.randn(3, generator=g, device='cuda')
assert x.is_cuda and g.device.type == 'cuda' and isinstance(torch.default_generator, torch.Generator)
perm = torch.randperm(5, generator=torch.Generator().manual_seed(1))
""",
    "cat_stack_matmul": """
a, b = torch.randn(2, 3, device='cuda'), torch.randn(2, 3, device='cuda')
c = torch.cat([a, b]); s = torch.stack([a, b])
bm = torch.randn(4, 2, 3, device='cuda') @ torch.randn(4, 3, 5, device='cuda')
mm = a @ b.T
assert c.is_cuda and s.is_cuda and bm.is_cuda and mm.is_cuda
""",
    "to_other_tensor_and_type_as": """
ref = torch.zeros(2, device='cuda', dtype=torch.float64)
x = torch.ones(2)
assert x.to(ref).is_cuda and x.type_as(ref).is_cuda and x.to(ref).dtype == torch.float64
assert x.type() == 'torch.FloatTensor' and ref.type() == 'torch.cuda.DoubleTensor'
""",
    "parameter_from_cuda_tensor": """
class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.w = nn.Parameter(torch.randn(3, device='cuda'))
    def forward(self, x):
        return x * self.w
net = Net()
assert isinstance(net.w, nn.Parameter) and net.w.is_cuda and len(list(net.parameters())) == 1
net(torch.randn(3, device='cuda')).sum().backward()
""",
    "loss_accumulation": """
model = nn.Linear(4, 1).to('cuda')
total, running = 0.0, 0
for _ in range(3):
    loss = model(torch.randn(2, 4, device='cuda')).pow(2).mean()
    total += loss.item(); running += loss.detach()
assert running.is_cuda and isinstance(total, float)
""",
    "eval_accuracy": """
model = nn.Linear(4, 3).to('cuda'); model.eval()
x, y = torch.randn(10, 4), torch.randint(0, 3, (10,))
with torch.no_grad():
    pred = model(x.to('cuda')).argmax(1)
correct = (pred == y.to('cuda')).sum().item()
acc = (pred.cpu() == y).float().mean().item()
assert 0 <= correct <= 10
""",
    "device_queries": """
x = torch.ones(2, device='cuda')
assert x.device == torch.device('cuda:0') and str(x.device) == 'cuda:0' and x.device.index == 0
assert not x.is_cpu and x.get_device() == 0 and torch.ones(1).get_device() == -1
""",
    "lr_scheduler_and_dropout": """
model = nn.Sequential(nn.Linear(4, 8), nn.Dropout(0.1), nn.Linear(8, 1)).cuda()
opt = torch.optim.SGD(model.parameters(), lr=0.1)
sched = torch.optim.lr_scheduler.StepLR(opt, step_size=1)
for _ in range(2):
    model.train(); loss = model(torch.randn(4, 4, device='cuda')).mean()
    opt.zero_grad(); loss.backward(); opt.step(); sched.step()
""",
    "log_softmax_nll": """
logits = torch.randn(5, 4, device='cuda', requires_grad=True)
loss = F.nll_loss(F.log_softmax(logits, dim=1), torch.tensor([0, 1, 2, 3, 0], device='cuda'))
bce = F.binary_cross_entropy_with_logits(torch.randn(3, device='cuda'), torch.ones(3, device='cuda'), pos_weight=torch.tensor(2.0))
loss.backward()
""",
    "iterate_rows_of_cuda_tensor": """
x = torch.randn(3, 4, device='cuda'); w = torch.randn(4, device='cuda')
outs = [row @ w for row in x]
a, b = x.unbind(0)[:2]; c, d = x.chunk(2, dim=1)
assert all(o.is_cuda for o in outs) and (a + c.sum()).is_cuda
""",
    "inplace_scalar_tensor_on_param": """
model = nn.Linear(3, 3).to('cuda')
with torch.no_grad():
    model.weight.mul_(torch.tensor(0.5)); model.bias.zero_(); model.weight.data.fill_(0.1)
assert model.weight.is_cuda and model.weight.data.is_cuda
""",
    "transformer_encoder": """
layer = nn.TransformerEncoderLayer(d_model=8, nhead=2, dim_feedforward=16, batch_first=True).to('cuda')
x = torch.randn(2, 5, 8, device='cuda')
y = layer(x); y.sum().backward()
layer.eval()
with torch.no_grad():
    assert layer(x).is_cuda
""",
    "module_cpu_round_trip": """
model = nn.Linear(2, 2).cuda()
model.cpu(); out = model(torch.ones(1, 2))
model.to('cuda'); out2 = model(torch.ones(1, 2, device='cuda'))
assert not out.is_cuda and out2.is_cuda
""",
    "set_default_device_cuda": """
torch.set_default_device('cuda')
try:
    x = torch.randn(3); model = nn.Linear(3, 1)
    assert x.is_cuda and model.weight.is_cuda and model(x).is_cuda
finally:
    torch.set_default_device('cpu')
""",
    "legacy_typed_constructors": """
import numpy as np
Tensor = torch.cuda.FloatTensor if torch.cuda.is_available() else torch.FloatTensor
model = nn.Linear(4, 1).cuda()
x = Tensor(8, 4).normal_()
y = Tensor(np.ones((8, 1)))
assert x.is_cuda and y.is_cuda and isinstance(x, torch.cuda.FloatTensor) and x.shape == (8, 4)
assert not isinstance(x, torch.cuda.LongTensor) and not isinstance(torch.ones(2), Tensor)
loss = F.mse_loss(model(x), y); loss.backward()
labels = torch.cuda.LongTensor([1, 0, 2])
assert labels.is_cuda and labels.dtype == torch.int64 and labels.type() == 'torch.cuda.LongTensor'
for name, dtype in [('DoubleTensor', torch.float64), ('IntTensor', torch.int32),
                    ('ByteTensor', torch.uint8), ('BoolTensor', torch.bool),
                    ('HalfTensor', torch.float16)]:
    t = getattr(torch.cuda, name)(3)
    assert t.is_cuda and t.dtype == dtype and t.shape == (3,)
moved = torch.ones(2).type(torch.cuda.FloatTensor)
torch.cuda.nvtx.range_push('step'); torch.cuda.nvtx.range_pop()
with torch.cuda.nvtx.range('step'):
    torch.cuda.nvtx.mark('here')
assert moved.is_cuda and moved.type(torch.FloatTensor).device.type == 'cpu'
""",
    "variable_keeps_the_device": """
from torch.autograd import Variable
y = torch.randint(0, 3, (8,)).cuda()
a, b = map(Variable, (y, torch.ones(2)))
assert a.is_cuda and Variable(y, requires_grad=False).is_cuda and not b.is_cuda
""",
    "data_parallel_on_one_gpu": """
net = torch.nn.DataParallel(nn.Linear(4, 3).cuda())
x, y = torch.randn(8, 4).cuda(), torch.randint(0, 3, (8,)).cuda()
out = net(x)
F.cross_entropy(out, y).backward()
assert out.is_cuda and net.module.weight.grad.is_cuda
""",
}

BAD = {
    "legacy_cpu_type_meets_legacy_cuda_type": Bad("""
weight = torch.cuda.FloatTensor(4, 2).fill_(1.0)
x = torch.FloatTensor(8, 4).fill_(1.0)
y = x @ weight
""", SAME + "cpu and cuda:0! (when checking argument for argument mat2 in method wrapper_CUDA_mm)"),
    "batch_not_moved": Bad("""
model = nn.Linear(4, 2).to('cuda')
x = torch.randn(8, 4)  # origin
model(x)
""", SAME + "cuda:0 and cpu! (when checking argument for argument mat1 in method wrapper_CUDA_addmm)"),
    "labels_not_moved": Bad("""
model = nn.Linear(4, 3).to('cuda')
x = torch.randn(8, 4).to('cuda')
y = torch.randint(0, 3, (8,))  # origin
loss = F.cross_entropy(model(x), y)
""", SAME + "cuda:0 and cpu! (when checking argument for argument target in method wrapper_CUDA_nll_loss_forward)"),
    "batch_moved_once_before_loop": Bad("""
from torch.utils.data import DataLoader, TensorDataset
loader = DataLoader(TensorDataset(torch.randn(32, 4), torch.randn(32, 1)), batch_size=8)
model = nn.Linear(4, 1).to('cuda')
xb, yb = next(iter(loader))
xb, yb = xb.to('cuda'), yb.to('cuda')
print(F.mse_loss(model(xb), yb).item())
for xb, yb in loader:  # origin
    loss = F.mse_loss(model(xb), yb)
""", SAME + "cuda:0 and cpu! (when checking argument for argument mat1 in method wrapper_CUDA_addmm)"),
    "discarded_to": Bad("""
model = nn.Linear(4, 2).to('cuda')
x = torch.randn(3, 4)  # origin
x.to('cuda')
model(x)
""", SAME + "cuda:0 and cpu! (when checking argument for argument mat1 in method wrapper_CUDA_addmm)"),
    "tensor_created_in_forward": Bad("""
class Net(nn.Module):
    def __init__(self):
        super().__init__(); self.fc = nn.Linear(4, 4)
    def forward(self, x):
        mask = torch.ones(x.shape[0], 4)  # origin
        return self.fc(x) * mask
Net().to('cuda')(torch.randn(2, 4, device='cuda'))
""", SAME + "cuda:0 and cpu!"),
    "tensor_created_in_loop": Bad("""
model = nn.Linear(4, 4).to('cuda')
for step in range(2):
    x = torch.randn(2, 4, device='cuda')
    noise = torch.randn(2, 4)  # origin
    out = model(x + noise)
""", SAME + "cuda:0 and cpu!"),
    "numpy_on_device": Bad("""
x = torch.randn(3, device='cuda')
x.numpy()
""", "can't convert cuda:0 device type tensor to numpy. Use Tensor.cpu() to copy the tensor to host memory first.", "TypeError"),
    "numpy_of_detached_output": Bad("""
model = nn.Linear(2, 1).to('cuda')
model(torch.ones(1, 2, device='cuda')).detach().numpy()
""", "can't convert cuda:0 device type tensor to numpy. Use Tensor.cpu() to copy the tensor to host memory first.", "TypeError"),
    "loss_weights_on_cpu": Bad("""
crit = nn.CrossEntropyLoss(weight=torch.tensor([1.0, 2.0, 3.0]))  # origin
logits = torch.randn(4, 3, device='cuda')
crit(logits, torch.tensor([0, 1, 2, 1], device='cuda'))
""", SAME + "cuda:0 and cpu! (when checking argument for argument weight in method wrapper_CUDA_nll_loss_forward)"),
    "unregistered_submodules_list": Bad("""
class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.layers = [nn.Linear(4, 4) for _ in range(2)]  # origin
    def forward(self, x):
        for layer in self.layers:
            x = layer(x)
        return x
Net().to('cuda')(torch.randn(2, 4, device='cuda'))
""", SAME + "cpu and cuda:0! (when checking argument for argument mat1 in method wrapper_CUDA_addmm)"),
    "plain_tensor_attribute": Bad("""
class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 4)
        self.scale = torch.ones(4)  # origin
    def forward(self, x):
        return self.fc(x) * self.scale
Net().to('cuda')(torch.randn(2, 4, device='cuda'))
""", SAME + "cuda:0 and cpu!"),
    "model_not_moved_input_moved": Bad("""
model = nn.Linear(4, 2)  # origin
model(torch.randn(3, 4).to('cuda'))
""", SAME + "cpu and cuda:0! (when checking argument for argument mat1 in method wrapper_CUDA_addmm)"),
    "linear_without_bias_batch_not_moved": Bad("""
model = nn.Linear(4, 2, bias=False).to('cuda')
model(torch.randn(3, 4))  # origin
""", SAME + "cpu and cuda:0! (when checking argument for argument mat2 in method wrapper_CUDA_mm)"),
    "mse_target_not_moved": Bad("""
model = nn.Linear(4, 1).cuda()
target = torch.randn(5, 1)  # origin
F.mse_loss(model(torch.randn(5, 4).cuda()), target)
""", SAME + "cuda:0 and cpu!"),
    "conv_input_not_moved": Bad("""
conv = nn.Conv2d(1, 2, 3).to('cuda')
conv(torch.randn(1, 1, 5, 5))  # origin
""", "Input type (torch.FloatTensor) and weight type (torch.cuda.FloatTensor) should be the same or input should be a MKLDNN tensor and weight is a dense tensor"),
    "conv_model_not_moved": Bad("""
conv = nn.Conv2d(1, 2, 3)
conv(torch.randn(1, 1, 5, 5, device='cuda'))
""", "Input type (torch.cuda.FloatTensor) and weight type (torch.FloatTensor) should be the same"),
    "lstm_input_not_moved": Bad("""
lstm = nn.LSTM(4, 6, batch_first=True).to('cuda')
lstm(torch.randn(2, 3, 4))  # origin
""", "Input and parameter tensors are not at the same device, found input tensor at cpu and parameter tensor at cuda:0"),
    "lstm_hidden_not_moved": Bad("""
gru = nn.GRU(4, 6).cuda()
h0 = torch.zeros(1, 2, 6)  # origin
gru(torch.randn(3, 2, 4, device='cuda'), h0)
""", "Input and hidden tensors are not at the same device, found input tensor at cuda:0 and hidden tensor at cpu"),
    "embedding_indices_not_moved": Bad("""
emb = nn.Embedding(10, 3).to('cuda')
idx = torch.tensor([1, 2, 3])  # origin
emb(idx)
""", SAME + "cuda:0 and cpu! (when checking argument for argument index in method wrapper_CUDA__index_select)"),
    "cat_mixed_devices": Bad("""
a = torch.randn(2, 3, device='cuda')
b = torch.randn(2, 3)  # origin
torch.cat([a, b])
""", SAME + "cuda:0 and cpu! (when checking argument for argument tensors in method wrapper_CUDA_cat)"),
    "cuda_index_into_cpu_tensor": Bad("""
table = torch.randn(5, 2)  # origin
table[torch.tensor([0, 1], device='cuda')]
""", "indices should be either on cpu or on the same device as the indexed tensor (cpu)", "IndexError"),
    "cuda_scalar_with_cpu_tensor": Bad("""
loss = torch.tensor(1.0, device='cuda')
weights = torch.ones(3)  # origin
weights * loss
""", SAME + "cuda:0 and cpu!"),
    "second_gpu_ordinal": Bad("""
torch.randn(2).to('cuda:1')
""", "CUDA error: invalid device ordinal"),
    "dataloader_batch_not_moved": Bad("""
from torch.utils.data import DataLoader, TensorDataset
loader = DataLoader(TensorDataset(torch.randn(16, 4)), batch_size=4, shuffle=True)
model = nn.Linear(4, 2).to('cuda')
for (xb,) in loader:  # origin
    model(xb)
""", SAME + "cuda:0 and cpu! (when checking argument for argument mat1 in method wrapper_CUDA_addmm)"),
    "checkpoint_loaded_to_cpu_used_as_input": Bad("""
import io
buf = io.BytesIO(); torch.save(torch.ones(2, 3, device='cuda'), buf); buf.seek(0)
x = torch.load(buf, map_location='cpu')
nn.Linear(3, 1).to('cuda')(x)
""", SAME + "cuda:0 and cpu! (when checking argument for argument mat1 in method wrapper_CUDA_addmm)"),
    "matmul_mixed": Bad("""
w = torch.randn(4, 4, device='cuda')
x = torch.randn(2, 4)  # origin
x @ w
""", SAME + "cpu and cuda:0! (when checking argument for argument mat2 in method wrapper_CUDA_mm)"),
    "grad_assigned_from_cpu": Bad("""
p = nn.Parameter(torch.zeros(3, device='cuda'))
p.grad = torch.ones(3)  # origin
""", "attempting to assign a gradient with device type 'cpu' to a tensor with device type 'cuda'. Please ensure that the gradient and the tensor are on the same device"),
}


# Run on a simulated machine of two GPUs as torchrun's rank 1 sees it (LOCAL_RANK 1: cuda:1 is
# its own GPU; cuda:0 is rank 0's and current until set_device). Each case starts after
# `torch.cuda.set_device(1)`, as a rank does, but the first, which looks at the start. A line
# marked `# origin` is where the misplaced tensor (on the CPU, or on rank 0's GPU) was made.
MULTI_GPU_DEVICES, MULTI_GPU_HOME = 2, 1
MULTI_GPU_GOOD = {
    "two_gpus_and_the_current_one": """
assert torch.cuda.device_count() == 2 and torch.cuda.current_device() == 0
assert torch.ones(1).cuda().get_device() == 0  # every rank's .cuda() is GPU 0 until set_device
torch.cuda.set_device(1)
x = torch.ones(2, device='cuda')
assert x.device == torch.device('cuda', 1) and x.get_device() == 1 and x.cuda().get_device() == 1
assert torch.zeros(1).cuda(0).get_device() == 0 and torch.zeros(1).to(0).get_device() == 0
torch.cuda.set_device(0)
assert torch.zeros(1, device='cuda').device == torch.device('cuda:0') and torch.cuda.current_device() == 0
torch.cuda.set_device(torch.device('cuda', 1))
assert torch.zeros(1).cuda().get_device() == 1
""",
    "module_to_an_index_as_ddp_tutorials_do": """
local_rank = 1
model = nn.Linear(4, 2).to(local_rank)  # Module.to(int) parses its arguments in Python
assert next(model.parameters()).device == torch.device('cuda', 1)
other = nn.Linear(4, 2).to(0)
assert other.weight.get_device() == 0 and other(torch.randn(3, 4).to(0)).get_device() == 0
""",
    "device_context_switches_and_restores": """
with torch.cuda.device(0):
    assert torch.empty(1, device='cuda').get_device() == 0
assert torch.empty(1, device='cuda').get_device() == 1
y = torch.ones(1, device='cuda:0')
with torch.cuda.device_of(y):
    assert torch.cuda.current_device() == 0
assert torch.cuda.current_device() == 1
""",
    "training_on_the_ranks_gpu": """
device = torch.device('cuda', 1)
model = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 1)).to(device)
opt = torch.optim.Adam(model.parameters(), lr=0.01)
for _ in range(2):
    x, y = torch.randn(8, 4).to(device), torch.randn(8, 1).to(device)
    loss = F.mse_loss(model(x), y)
    opt.zero_grad(); loss.backward(); torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0); opt.step()
assert loss.device == device and model[0].weight.grad.device == device
assert 'cuda:1' in repr(loss) and next(model.parameters()).device == device
""",
    "copies_between_gpus": """
a = torch.ones(3, device='cuda:0')
b = torch.zeros(3, device='cuda:1')
b.copy_(a)
c = a.to('cuda:1') + b
d = a.to(b) * b
assert c.get_device() == 1 and d.get_device() == 1 and a.to(b).get_device() == 1
assert b[torch.tensor([0, 2])].get_device() == 1
""",
    "checkpoints_keep_and_remap_their_gpu": """
import io
buf = io.BytesIO(); torch.save({'w': torch.ones(2, device='cuda:1')}, buf)
buf.seek(0); assert torch.load(buf)['w'].get_device() == 1
buf.seek(0); assert torch.load(buf, map_location={'cuda:1': 'cuda:0'})['w'].get_device() == 0
buf.seek(0); assert torch.load(buf, map_location='cuda:0')['w'].get_device() == 0
buf.seek(0); assert torch.load(buf, map_location='cpu')['w'].device.type == 'cpu'
""",
}
MULTI_GPU_BAD = {
    "batch_on_the_other_ranks_gpu": Bad("""
model = nn.Linear(4, 2).to('cuda:1')
x = torch.randn(8, 4).to('cuda:0')  # origin
model(x)
""", SAME + "cuda:1 and cuda:0! (when checking argument for argument mat1 in method wrapper_CUDA_addmm)"),
    "elementwise_across_gpus": Bad("""
a = torch.ones(2, device='cuda:0')  # origin
a + torch.ones(2, device='cuda:1')
""", SAME + "cuda:0 and cuda:1!"),
    "labels_on_the_other_gpu": Bad("""
logits = torch.randn(4, 3, device='cuda')
labels = torch.tensor([0, 1, 2, 1]).cuda(0)  # origin
F.cross_entropy(logits, labels)
""", SAME + "cuda:1 and cuda:0! (when checking argument for argument target in method wrapper_CUDA_nll_loss_forward)"),
    "ordinal_past_the_last_gpu": Bad("""
torch.zeros(1, device='cuda:2')
""", "CUDA error: invalid device ordinal"),
    "set_device_past_the_last_gpu": Bad("""
torch.cuda.set_device(2)
""", "CUDA error: invalid device ordinal"),
    "conv_weight_on_the_other_gpu": Bad("""
conv = nn.Conv2d(1, 2, 3).to('cuda:0')
conv(torch.randn(1, 1, 5, 5, device='cuda'))
""", "Expected tensor for argument #1 'input' to have the same device as tensor for argument #2 'weight'; but device 1 does not equal 0 (while checking arguments for cudnn_convolution)"),
    "grad_from_the_other_gpu": Bad("""
p = nn.Parameter(torch.zeros(3, device='cuda'))
p.grad = torch.ones(3, device='cuda:0')
""", "attempting to assign a gradient located on device with index '0' to a tensor located on device with index '1'. Please ensure that the gradient and the tensor are on the same device"),
    "index_on_the_other_gpu": Bad("""
x = torch.randn(4, device='cuda:1')
x[torch.tensor([0, 1], device='cuda:0')]
""", "indices should be either on cpu or on the same device as the indexed tensor (cuda:1)", "IndexError"),
    "checkpoint_for_a_missing_gpu": Bad("""
import io
buf = io.BytesIO(); torch.save(torch.ones(2, device='cuda:1'), buf); buf.seek(0)
torch.load(buf, map_location='cuda:3')
""", "Attempting to deserialize object on CUDA device 3 but torch.cuda.device_count() is 2. Please use torch.load with map_location to map your storages to an existing device."),
}

def origin_line(source: str) -> int | None:
    """Line number (in PREAMBLE + source) of the line marked `# origin`."""
    for number, line in enumerate((PREAMBLE + source).splitlines(), start=1):
        if line.rstrip().endswith("# origin"):
            return number
    return None
