"""Plain PyTorch training loop with torchmetrics for validation accuracy and F1."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset
from torchmetrics.classification import MulticlassAccuracy, MulticlassF1Score


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    x = torch.randn(2000, 40)
    y = (x[:, :3].sum(1) > 0).long() + (x[:, 3] > 1).long()
    train = DataLoader(TensorDataset(x[:1600], y[:1600]), batch_size=64, shuffle=True)
    val = DataLoader(TensorDataset(x[1600:], y[1600:]), batch_size=256)
    model = nn.Sequential(nn.Linear(40, 64), nn.ReLU(), nn.Linear(64, 3)).to(device)
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    val_acc = MulticlassAccuracy(num_classes=3)  # expect: DEV019
    val_f1 = MulticlassF1Score(num_classes=3, average="macro").to(device)
    for epoch in range(5):
        model.train()
        for xb, yb in train:
            xb, yb = xb.to(device), yb.to(device)
            loss = F.cross_entropy(model(xb), yb)
            opt.zero_grad()
            loss.backward()
            opt.step()
        model.eval()
        with torch.no_grad():
            for xb, yb in val:
                xb, yb = xb.to(device), yb.to(device)
                preds = model(xb).argmax(-1)
                val_acc.update(preds, yb)
                val_f1.update(preds, yb)
        print(f"epoch {epoch}: acc {val_acc.compute():.3f} f1 {val_f1.compute():.3f}")
        val_acc.reset()
        val_f1.reset()


if __name__ == "__main__":
    main()
