"""Gradient accumulation over micro-batches with a validation pass at the end of every epoch; the
training loop re-applies .to(device).train() to the model at the top of each micro-batch to undo
the evaluation mode set by validate().

Thread: https://github.com/pytorch/ignite/pull/835 (moving the model at every iteration: profiled
at about 2 s per 1000 calls of model.to(device) on a ResNet-101, even as a no-op).
"""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


@torch.no_grad()
def validate(model, loader, device):
    model.eval()
    total, n = 0.0, 0
    for x, y in loader:
        x, y = x.to(device), y.to(device)
        total += F.cross_entropy(model(x), y, reduction="sum").item()
        n += len(y)
    return total / n


def main(accum_steps=4, epochs=3):
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = nn.Sequential(nn.Linear(64, 256), nn.GELU(), nn.Dropout(0.1), nn.Linear(256, 8))
    opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
    x_all, y_all = torch.randn(2048, 64), torch.randint(0, 8, (2048,))
    train = DataLoader(TensorDataset(x_all[:1792], y_all[:1792]), batch_size=16, shuffle=True)
    val = DataLoader(TensorDataset(x_all[1792:], y_all[1792:]), batch_size=128)
    for epoch in range(epochs):
        for i, (x, y) in enumerate(train):
            model = model.to(device).train()  # expect: DEV007
            x, y = x.to(device), y.to(device)
            loss = F.cross_entropy(model(x), y) / accum_steps
            loss.backward()
            if (i + 1) % accum_steps == 0:
                opt.step()
                opt.zero_grad()
        print(epoch, validate(model, val, device))


if __name__ == "__main__":
    main()
