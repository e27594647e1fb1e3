"""Speech-command classifier on synthetic MFCC-like features: training moves inputs and labels
together; the validation helper computes the loss per batch."""
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


def validate(model, loader, criterion, device):
    model.eval()
    total, n = 0.0, 0
    with torch.no_grad():
        for feats, target in loader:
            logits = model(feats.to(device))
            total += criterion(logits, target).item() * len(target)  # expect: DEV004
            n += len(target)
    return total / n


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    feats = torch.randn(600, 13, 20)
    target = feats[:, 0].mean(1).gt(0).long() + feats[:, 1].mean(1).gt(0).long()
    train_loader = DataLoader(TensorDataset(feats[:500], target[:500]), batch_size=50, shuffle=True)
    val_loader = DataLoader(TensorDataset(feats[500:], target[500:]), batch_size=50)
    model = nn.Sequential(nn.Flatten(), nn.Linear(260, 64), nn.ReLU(), nn.Linear(64, 3)).to(device)
    criterion = nn.CrossEntropyLoss()
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    for epoch in range(3):
        model.train()
        for xb, yb in train_loader:
            xb, yb = xb.to(device), yb.to(device)
            loss = criterion(model(xb), yb)
            opt.zero_grad()
            loss.backward()
            opt.step()
        print(epoch, validate(model, val_loader, criterion, device))


if __name__ == "__main__":
    main()
