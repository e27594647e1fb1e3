"""accelerate loop with an EMA copy and an eval loader that goes through prepare();
the gathered predictions are brought to the CPU before NumPy."""
import copy

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from accelerate import Accelerator
from torch.utils.data import DataLoader, TensorDataset


def make_data(n, seed):
    g = torch.Generator().manual_seed(seed)
    return TensorDataset(torch.randn(n, 24, generator=g), torch.randint(0, 5, (n,), generator=g))


@torch.no_grad()
def ema_update(ema, model, decay=0.99):
    for e, p in zip(ema.parameters(), model.parameters()):
        e.lerp_(p.detach(), 1 - decay)


@torch.no_grad()
def evaluate(accelerator, model, loader):
    model.eval()
    preds, refs = [], []
    for x, y in loader:
        logits = model(x)
        p, r = accelerator.gather_for_metrics((logits.argmax(-1), y))
        preds.append(p.cpu().numpy())
        refs.append(r.cpu().numpy())
    return float((np.concatenate(preds) == np.concatenate(refs)).mean())


def main():
    accelerator = Accelerator()
    model = nn.Sequential(nn.Linear(24, 64), nn.ReLU(), nn.Linear(64, 5))
    optimizer = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
    train_dl = DataLoader(make_data(80, 0), batch_size=16, shuffle=True)
    eval_dl = DataLoader(make_data(32, 1), batch_size=16)

    model, optimizer, train_dl, eval_dl = accelerator.prepare(model, optimizer, train_dl, eval_dl)
    ema = copy.deepcopy(accelerator.unwrap_model(model)).eval()
    ema.requires_grad_(False)

    smoothing = torch.full((5,), 0.02, device=accelerator.device)
    for epoch in range(3):
        model.train()
        for x, y in train_dl:
            logits = model(x)
            target = F.one_hot(y, 5).float() * 0.9 + smoothing
            loss = torch.sum(-target * F.log_softmax(logits, -1), -1).mean()
            accelerator.backward(loss)
            optimizer.step()
            optimizer.zero_grad()
            ema_update(ema, accelerator.unwrap_model(model))
        accelerator.print(epoch, evaluate(accelerator, model, eval_dl), evaluate(accelerator, ema, eval_dl))


if __name__ == "__main__":
    main()
