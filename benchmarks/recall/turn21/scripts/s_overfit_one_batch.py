"""Fine-tuning a 1D-CNN on sensor windows. Before training we grab one batch to print
shapes and check the loss at init (should be ~log(n_classes))."""
import math

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


class SensorCNN(nn.Module):
    def __init__(self, channels=6, n_cls=4):
        super().__init__()
        self.net = nn.Sequential(
            nn.Conv1d(channels, 32, 5, padding=2), nn.BatchNorm1d(32), nn.ReLU(),
            nn.Conv1d(32, 32, 5, padding=2), nn.BatchNorm1d(32), nn.ReLU(),
            nn.AdaptiveAvgPool1d(1), nn.Flatten(), nn.Linear(32, n_cls))

    def forward(self, x):
        return self.net(x)


def main():
    torch.manual_seed(0)
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    n_cls = 4
    ds = TensorDataset(torch.randn(96, 6, 50), torch.randint(0, n_cls, (96,)))
    train_loader = DataLoader(ds, batch_size=16, shuffle=True, drop_last=True)

    model = SensorCNN(n_cls=n_cls).to(device)
    criterion = nn.CrossEntropyLoss()
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)

    signals, labels = next(iter(train_loader))
    signals, labels = signals.to(device), labels.to(device)  # expect: DEV003
    with torch.no_grad():
        init_loss = criterion(model(signals), labels).item()
    print(f"batch {tuple(signals.shape)}; init loss {init_loss:.3f} vs log(C)={math.log(n_cls):.3f}")

    for epoch in range(3):
        model.train()
        running = 0.0
        for signals, labels in train_loader:
            optimizer.zero_grad()
            outputs = model(signals)  # also: DEV002
            loss = criterion(outputs, labels)  # also: DEV004
            loss.backward()
            optimizer.step()
            running += loss.item()
        print(f"epoch {epoch} loss {running / len(train_loader):.4f}")


if __name__ == "__main__":
    main()
