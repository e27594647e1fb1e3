"""Multi-label image tagging with dict batches; each tensor of the batch is moved in a loop over
its keys before the forward pass."""
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset


class Tagged(Dataset):
    def __init__(self, n=1024, tags=20):
        self.images = torch.rand(n, 3, 64, 64)
        self.tags = (torch.rand(n, tags) < 0.1).float()

    def __len__(self):
        return len(self.images)

    def __getitem__(self, i):
        return {"pixel_values": self.images[i], "labels": self.tags[i]}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=3)
    args = parser.parse_args()
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = nn.Sequential(nn.Conv2d(3, 16, 3, stride=2), nn.ReLU(), nn.Conv2d(16, 32, 3, stride=2), nn.ReLU(),
                          nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(32, 20)).to(device)
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    loader = DataLoader(Tagged(), batch_size=32, shuffle=True)
    for epoch in range(args.epochs):
        for batch in loader:
            for key in batch:
                batch[key].to(device)  # expect: DEV005
            logits = model(batch["pixel_values"])  # also: DEV002
            loss = F.binary_cross_entropy_with_logits(logits, batch["labels"])  # also: DEV004
            opt.zero_grad()
            loss.backward()
            opt.step()
        print(epoch, loss.item())


if __name__ == "__main__":
    main()
