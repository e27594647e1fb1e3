"""Validation loop over dict batches from a custom dataset: inputs and labels are sent to the
device before the loss."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset


class Records(Dataset):
    def __init__(self, n):
        self.x = torch.randn(n, 9)
        self.y = (self.x[:, 0] > 0).long()

    def __len__(self):
        return len(self.y)

    def __getitem__(self, i):
        return {"features": self.x[i], "labels": self.y[i]}


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = nn.Sequential(nn.Linear(9, 16), nn.ReLU(), nn.Linear(16, 2)).to(device).eval()
    total = 0.0
    with torch.no_grad():
        for batch in DataLoader(Records(200), batch_size=40):
            feats = batch["features"].to(device)
            batch["labels"].to(device)  # expect: DEV005
            total += F.cross_entropy(model(feats), batch["labels"]).item()  # also: DEV004
    print(total / 5)


if __name__ == "__main__":
    main()
