"""Imbalanced sensor-fault classifier trained with accelerate; the loss gets class weights from
the label counts."""
import torch
import torch.nn as nn
from accelerate import Accelerator
from torch.utils.data import DataLoader, TensorDataset


def main():
    accelerator = Accelerator()
    x = torch.randn(600, 10)
    y = (x[:, 0] > 1.2).long() + (x[:, 1] > 1.5).long()
    counts = torch.bincount(y, minlength=3).float()
    model = nn.Sequential(nn.Linear(10, 32), nn.ReLU(), nn.Linear(32, 3))
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    loader = DataLoader(TensorDataset(x, y), batch_size=64, shuffle=True)
    criterion = nn.CrossEntropyLoss(weight=counts.sum() / (3 * counts.clamp(min=1)))  # expect: DEV012
    model, opt, loader = accelerator.prepare(model, opt, loader)
    for epoch in range(3):
        for xb, yb in loader:
            loss = criterion(model(xb), yb)
            accelerator.backward(loss)
            opt.step()
            opt.zero_grad()
        accelerator.print(epoch, loss.item())


if __name__ == "__main__":
    main()
