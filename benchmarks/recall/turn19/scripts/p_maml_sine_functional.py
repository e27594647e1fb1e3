"""MAML on sine-wave regression (Finn et al. 2017) with torch.func.functional_call.

The inner loop adapts a dict of fast weights; the outer loop differentiates through it.
"""
import argparse

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.func import functional_call


class SineLearner(nn.Module):
    def __init__(self, hidden=40):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(1, hidden), nn.ReLU(), nn.Linear(hidden, hidden), nn.ReLU(), nn.Linear(hidden, 1))

    def forward(self, x):
        return self.net(x)


def sample_sine_task(k_shot, rng):
    amp = rng.uniform(0.1, 5.0)
    phase = rng.uniform(0, np.pi)
    xs = rng.uniform(-5.0, 5.0, size=(2 * k_shot, 1)).astype(np.float32)
    ys = (amp * np.sin(xs - phase)).astype(np.float32)
    return torch.from_numpy(xs), torch.from_numpy(ys)  # expect: DEV006


def adapt(model, params, x, y, inner_lr, steps, create_graph):
    for _ in range(steps):
        loss = F.mse_loss(functional_call(model, params, (x,)), y)
        grads = torch.autograd.grad(loss, list(params.values()), create_graph=create_graph)
        params = {name: p - inner_lr * g for (name, p), g in zip(params.items(), grads)}
    return params


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--meta-iters", type=int, default=100)
    ap.add_argument("--meta-batch", type=int, default=4)
    ap.add_argument("--k-shot", type=int, default=10)
    ap.add_argument("--inner-lr", type=float, default=0.01)
    ap.add_argument("--inner-steps", type=int, default=1)
    ap.add_argument("--first-order", action="store_true")
    args = ap.parse_args()

    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    rng = np.random.default_rng(0)
    model = SineLearner().to(device)
    meta_opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    history = []

    for it in range(args.meta_iters):
        meta_opt.zero_grad()
        meta_loss = 0.0
        for _ in range(args.meta_batch):
            x, y = sample_sine_task(args.k_shot, rng)
            x_s, y_s, x_q, y_q = x[: args.k_shot], y[: args.k_shot], x[args.k_shot:], y[args.k_shot:]
            params = dict(model.named_parameters())
            fast = adapt(model, params, x_s, y_s, args.inner_lr, args.inner_steps, not args.first_order)
            meta_loss = meta_loss + F.mse_loss(functional_call(model, fast, (x_q,)), y_q)
        meta_loss = meta_loss / args.meta_batch
        meta_loss.backward()
        meta_opt.step()
        history.append(meta_loss.detach().numpy())  # expect: DEV011
        if (it + 1) % 25 == 0:
            print(f"meta-iter {it + 1}: query mse {np.mean(history[-25:]):.3f}")


if __name__ == "__main__":
    main()
