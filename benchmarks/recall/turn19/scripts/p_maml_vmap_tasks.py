"""Batched MAML with torch.func: grad + vmap over a batch of sine-regression tasks.

Follows the structure of the functorch MAML example: the inner loop is a pure
function of (params, buffers, task data), and vmap runs it over tasks in parallel.
"""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.func import functional_call, grad, vmap

META_ITERS = 60
TASKS_PER_BATCH = 8
K_SHOT = 10
INNER_LR = 0.01
INNER_STEPS = 1

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
torch.manual_seed(0)

net = nn.Sequential(nn.Linear(1, 40), nn.ReLU(), nn.Linear(40, 40), nn.ReLU(), nn.Linear(40, 1)).to(device)
params = {k: v.detach() for k, v in net.named_parameters()}
for v in params.values():
    v.requires_grad_(True)
meta_opt = torch.optim.Adam(params.values(), lr=1e-3)


def sample_tasks(n_tasks, k, dev):
    amp = torch.empty(n_tasks, 1, 1, device=dev).uniform_(0.1, 5.0)
    phase = torch.empty(n_tasks, 1, 1, device=dev).uniform_(0, math.pi)
    x = torch.empty(n_tasks, 2 * k, 1, device=dev).uniform_(-5, 5)
    y = amp * torch.sin(x - phase)
    return x[:, :k], y[:, :k], x[:, k:], y[:, k:]


def loss_fn(p, x, y):
    return F.mse_loss(functional_call(net, p, (x,)), y)


def inner_adapt(p, x_s, y_s):
    for _ in range(INNER_STEPS):
        g = grad(loss_fn)(p, x_s, y_s)
        p = {k: p[k] - INNER_LR * g[k] for k in p}
    return p


def query_loss(p, x_s, y_s, x_q, y_q):
    return loss_fn(inner_adapt(p, x_s, y_s), x_q, y_q)


for it in range(META_ITERS):
    x_s, y_s, x_q, y_q = sample_tasks(TASKS_PER_BATCH, K_SHOT, device)
    losses = vmap(query_loss, in_dims=(None, 0, 0, 0, 0))(params, x_s, y_s, x_q, y_q)
    meta_loss = losses.mean()
    meta_opt.zero_grad()
    meta_loss.backward()
    meta_opt.step()
    if (it + 1) % 20 == 0:
        print(f"iter {it + 1}: meta loss {meta_loss.item():.3f}  worst task {losses.max().item():.3f}")

# adapt to one new task and report the post-adaptation error
x_s, y_s, x_q, y_q = sample_tasks(1, K_SHOT, device)
adapted = inner_adapt(params, x_s[0], y_s[0])
print("post-adaptation mse", round(loss_fn(adapted, x_q[0], y_q[0]).item(), 3))
