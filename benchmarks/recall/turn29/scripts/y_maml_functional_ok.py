"""MAML on sine-wave regression with torch.func.functional_call (second-order)."""
import argparse

import numpy as np
import torch
import torch.nn as nn
from torch.func import functional_call


def sample_task(rng, k_shot):
    amp, phase = rng.uniform(0.1, 5.0), rng.uniform(0, np.pi)
    xs = rng.uniform(-5, 5, size=(2 * k_shot, 1))
    ys = amp * np.sin(xs + phase)
    return xs, ys


def inner_adapt(model, params, x, y, steps, inner_lr):
    for _ in range(steps):
        pred = functional_call(model, params, (x,))
        loss = nn.functional.mse_loss(pred, y)
        grads = torch.autograd.grad(loss, list(params.values()), create_graph=True)
        params = {k: v - inner_lr * g for (k, v), g in zip(params.items(), grads)}
    return params


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--meta-steps", type=int, default=5)
    ap.add_argument("--tasks-per-batch", type=int, default=4)
    ap.add_argument("--k-shot", type=int, default=10)
    ap.add_argument("--device", default="cuda" if torch.cuda.is_available() else "cpu")
    args = ap.parse_args()
    device = torch.device(args.device)

    model = nn.Sequential(nn.Linear(1, 40), nn.ReLU(), nn.Linear(40, 40), nn.ReLU(), nn.Linear(40, 1))
    model.to(device)
    meta_opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    rng = np.random.default_rng(0)

    for step in range(args.meta_steps):
        meta_loss = 0.0
        for _ in range(args.tasks_per_batch):
            xs, ys = sample_task(rng, args.k_shot)
            x = torch.from_numpy(xs).float().to(device)
            y = torch.from_numpy(ys).to(device)
            x_s, x_q = x[: args.k_shot], x[args.k_shot:]
            y_s = y[: args.k_shot].float()
            y_q = y[args.k_shot:].float()
            params = dict(model.named_parameters())
            fast = inner_adapt(model, params, x_s, y_s, steps=1, inner_lr=0.01)
            meta_loss = meta_loss + nn.functional.mse_loss(functional_call(model, fast, (x_q,)), y_q)
        meta_opt.zero_grad()
        (meta_loss / args.tasks_per_batch).backward()
        meta_opt.step()
        print(f"meta step {step} loss {meta_loss.item() / args.tasks_per_batch:.4f}")


if __name__ == "__main__":
    main()
