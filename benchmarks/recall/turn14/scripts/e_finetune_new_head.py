#!/usr/bin/env python
"""Transfer a small pretrained CNN to a new label set.

usage: python e_finetune_new_head.py --pretrained backbone.pt --num-classes 5
GPU 0 on the lab box is the shared one, so default to the second card.
"""
import argparse
import os
import tempfile

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


class BasicBlock(nn.Module):
    def __init__(self, c_in, c_out, stride=1):
        super().__init__()
        self.conv1 = nn.Conv2d(c_in, c_out, 3, stride, 1, bias=False)
        self.bn1 = nn.BatchNorm2d(c_out)
        self.conv2 = nn.Conv2d(c_out, c_out, 3, 1, 1, bias=False)
        self.bn2 = nn.BatchNorm2d(c_out)
        self.short = nn.Sequential()
        if stride != 1 or c_in != c_out:
            self.short = nn.Sequential(nn.Conv2d(c_in, c_out, 1, stride, bias=False), nn.BatchNorm2d(c_out))

    def forward(self, x):
        out = F.relu(self.bn1(self.conv1(x)))
        out = self.bn2(self.conv2(out))
        return F.relu(out + self.short(x))


class SmallResNet(nn.Module):
    def __init__(self, num_classes=10):
        super().__init__()
        self.stem = nn.Sequential(nn.Conv2d(3, 16, 3, 1, 1, bias=False), nn.BatchNorm2d(16), nn.ReLU())
        self.layer1 = BasicBlock(16, 32, 2)
        self.layer2 = BasicBlock(32, 64, 2)
        self.pool = nn.AdaptiveAvgPool2d(1)
        self.fc = nn.Linear(64, num_classes)

    def forward(self, x):
        x = self.layer2(self.layer1(self.stem(x)))
        return self.fc(torch.flatten(self.pool(x), 1))


def replace_head(model, num_classes, dropout=0.2):
    in_features = model.fc.in_features
    model.fc = nn.Sequential(nn.Dropout(dropout), nn.Linear(in_features, num_classes))  # expect: DEV015
    return model


def freeze_backbone(model):
    for name, p in model.named_parameters():
        if not name.startswith("fc."):
            p.requires_grad = False


def fake_dataset(n, num_classes, seed):
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(n, 3, 32, 32, generator=g)
    y = torch.randint(0, num_classes, (n,), generator=g)
    x[torch.arange(n), y % 3, :4, :4] += 3.0
    return TensorDataset(x, y)


def parse_args():
    p = argparse.ArgumentParser()
    p.add_argument("--pretrained", default=os.path.join(tempfile.gettempdir(), "e_small_resnet_backbone.pt"))
    p.add_argument("--num-classes", type=int, default=5)
    p.add_argument("--epochs", type=int, default=2)
    p.add_argument("--lr", type=float, default=1e-2)
    p.add_argument("--freeze", action="store_true")
    return p.parse_args()


def main():
    args = parse_args()
    device = torch.device("cuda:1" if torch.cuda.is_available() else "cpu")  # expect: DEV018

    model = SmallResNet(num_classes=10)
    if not os.path.exists(args.pretrained):
        # no backbone yet: save the random init so the run below is reproducible
        torch.save(model.state_dict(), args.pretrained)
    state = torch.load(args.pretrained)  # expect: DEV008
    model.load_state_dict(state)
    model.to(device)

    replace_head(model, args.num_classes)
    if args.freeze:
        freeze_backbone(model)
    params = [p for p in model.parameters() if p.requires_grad]
    optimizer = torch.optim.SGD(params, lr=args.lr, momentum=0.9)

    train_loader = DataLoader(fake_dataset(256, args.num_classes, 0), batch_size=32, shuffle=True)
    val_loader = DataLoader(fake_dataset(64, args.num_classes, 1), batch_size=64)

    for epoch in range(args.epochs):
        model.train()
        for images, labels in train_loader:
            images, labels = images.to(device), labels.to(device)
            loss = F.cross_entropy(model(images), labels)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()

        model.eval()
        correct = 0
        with torch.no_grad():
            for images, labels in val_loader:
                images, labels = images.to(device), labels.to(device)
                correct += (model(images).argmax(1) == labels).sum().item()
        print(f"epoch {epoch}: train loss {loss.item():.3f} val acc {correct / len(val_loader.dataset):.3f}")


if __name__ == "__main__":
    main()
