"""Tabular regressor trained with accelerate; the validation loader is built after prepare and
never handed to it.

Thread: https://github.com/huggingface/peft/issues/81 (inputs must be put on the model's device
when they bypass the framework); https://github.com/rasbt/LLM-workshop-2024/issues/6.
"""
import torch
import torch.nn as nn
from accelerate import Accelerator
from torch.utils.data import DataLoader, TensorDataset


def main():
    acc = Accelerator()
    X, y = torch.randn(512, 12), torch.randn(512, 1)
    Xv, yv = torch.randn(128, 12), torch.randn(128, 1)
    net = nn.Sequential(nn.Linear(12, 64), nn.GELU(), nn.Linear(64, 1))
    opt = torch.optim.AdamW(net.parameters(), lr=3e-3)
    train_dl = DataLoader(TensorDataset(X, y), batch_size=32, shuffle=True)
    net, opt, train_dl = acc.prepare(net, opt, train_dl)
    val_dl = DataLoader(TensorDataset(Xv, yv), batch_size=64)
    for epoch in range(2):
        net.train()
        for xb, yb in train_dl:
            loss = nn.functional.mse_loss(net(xb), yb)
            acc.backward(loss)
            opt.step()
            opt.zero_grad()
        net.eval()
        total = 0.0
        with torch.no_grad():
            for xv, tv in val_dl:
                pred = net(xv)  # expect: DEV002
                total += nn.functional.mse_loss(pred, tv, reduction="sum").item()  # also: DEV004
        acc.print(epoch, total / len(Xv))


if __name__ == "__main__":
    main()
