"""Fine-tuning a small residual CNN on single-channel scans: the RGB stem is swapped for a
one-channel convolution when --in-chans is not 3, and the model is compiled before training.

Thread: https://github.com/matssteinweg/PIXOR/issues/6 (Input type (torch.cuda.FloatTensor) and
weight type (torch.FloatTensor) should be the same).
"""
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


class Block(nn.Module):
    def __init__(self, c):
        super().__init__()
        self.conv1, self.conv2 = nn.Conv2d(c, c, 3, padding=1), nn.Conv2d(c, c, 3, padding=1)
        self.bn1, self.bn2 = nn.BatchNorm2d(c), nn.BatchNorm2d(c)

    def forward(self, x):
        return F.relu(x + self.bn2(self.conv2(F.relu(self.bn1(self.conv1(x))))))


class SmallResNet(nn.Module):
    def __init__(self, num_classes=5):
        super().__init__()
        self.stem = nn.Conv2d(3, 32, 3, stride=2, padding=1, bias=False)
        self.blocks = nn.Sequential(Block(32), Block(32))
        self.fc = nn.Linear(32, num_classes)

    def forward(self, x):
        return self.fc(self.blocks(F.relu(self.stem(x))).mean((2, 3)))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--in-chans", type=int, default=1)
    parser.add_argument("--epochs", type=int, default=2)
    args = parser.parse_args()
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = SmallResNet(num_classes=5).to(device)
    if args.in_chans != 3:
        model.stem = nn.Conv2d(args.in_chans, 32, 3, stride=2, padding=1, bias=False)  # expect: DEV015
    model = torch.compile(model)
    opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
    data = TensorDataset(torch.rand(256, args.in_chans, 64, 64), torch.randint(0, 5, (256,)))
    for epoch in range(args.epochs):
        for x, y in DataLoader(data, batch_size=32, shuffle=True):
            x, y = x.to(device), y.to(device)
            loss = F.cross_entropy(model(x), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
        print(epoch, loss.item())


if __name__ == "__main__":
    main()
