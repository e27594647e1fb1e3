"""Gradient accumulation by splitting each loader batch into micro-batches that fit in memory.

Thread: https://github.com/HoyTta0/KnowledgeDistillation/issues/10 (cuda:0 and cpu when checking
argument target in nll_loss_forward: labels = labels.to(config.device) was missing).
"""
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

ACCUM = 4


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = nn.Sequential(nn.Linear(128, 256), nn.GELU(), nn.Linear(256, 10)).to(device)
    opt = torch.optim.AdamW(model.parameters(), lr=3e-4)
    ds = TensorDataset(torch.randn(256, 128), torch.randint(0, 10, (256,)))
    for x, y in DataLoader(ds, batch_size=64, shuffle=True):
        x = x.to(device, non_blocking=True)
        opt.zero_grad(set_to_none=True)
        for xm, ym in zip(x.chunk(ACCUM), y.chunk(ACCUM)):
            loss = nn.functional.cross_entropy(model(xm), ym) / ACCUM  # expect: DEV004
            loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        opt.step()
    print(loss.item())


if __name__ == "__main__":
    main()
