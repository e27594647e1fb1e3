"""Training script that first checks the shapes on one batch (printing the output size) and
then runs the epochs over the loader."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    x = torch.randn(320, 2, 28)
    y = x.sum((1, 2)).gt(0).long()
    loader = DataLoader(TensorDataset(x, y), batch_size=32, shuffle=True)
    model = nn.Sequential(nn.Conv1d(2, 8, 5), nn.ReLU(), nn.AdaptiveMaxPool1d(1), nn.Flatten(), nn.Linear(8, 2))
    model = model.to(device)
    signals, labels = next(iter(loader))
    signals, labels = signals.to(device), labels.to(device)  # expect: DEV003
    print("output", model(signals).shape)
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    for epoch in range(3):
        for signals, labels in loader:
            out = model(signals)  # also: DEV002
            loss = F.cross_entropy(out, labels)  # also: DEV004
            opt.zero_grad()
            loss.backward()
            opt.step()
    print(loss.item())


if __name__ == "__main__":
    main()
