"""Correct look-alike: every loader goes through prepare, the gathered predictions are copied
to the host before scikit-learn, and the early-stopping loss is a Python float."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from accelerate import Accelerator
from sklearn.metrics import f1_score
from torch.utils.data import DataLoader, TensorDataset


def main():
    accelerator = Accelerator()
    x = torch.randn(600, 20)
    y = (x[:, 0] + x[:, 1] > 0).long()
    train_loader = DataLoader(TensorDataset(x[:500], y[:500]), batch_size=50, shuffle=True)
    val_loader = DataLoader(TensorDataset(x[500:], y[500:]), batch_size=50)
    model = nn.Sequential(nn.Linear(20, 32), nn.ReLU(), nn.Linear(32, 2))
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    model, optimizer, train_loader, val_loader = accelerator.prepare(model, optimizer, train_loader, val_loader)
    for epoch in range(4):
        model.train()
        for xb, yb in train_loader:
            loss = F.cross_entropy(model(xb), yb)
            accelerator.backward(loss)
            optimizer.step()
            optimizer.zero_grad()
        model.eval()
        all_p, all_y, val_loss = [], [], 0.0
        with torch.no_grad():
            for xb, yb in val_loader:
                logits = model(xb)
                val_loss += F.cross_entropy(logits, yb, reduction="sum").item()
                p, r = accelerator.gather_for_metrics((logits.argmax(-1), yb))
                all_p.append(p.cpu())
                all_y.append(r.cpu())
        f1 = f1_score(torch.cat(all_y).numpy(), torch.cat(all_p).numpy())
        accelerator.print(epoch, val_loss / 100, f1)


if __name__ == "__main__":
    main()
