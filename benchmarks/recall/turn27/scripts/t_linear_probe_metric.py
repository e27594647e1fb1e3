"""Linear evaluation of a self-supervised backbone with torchmetrics."""
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset
from torchmetrics.classification import MulticlassAccuracy


class Backbone(nn.Module):
    def __init__(self, in_dim=48, feat=64):
        super().__init__()
        self.features = nn.Sequential(nn.Linear(in_dim, 128), nn.ReLU(), nn.Linear(128, feat), nn.ReLU())
        self.fc = nn.Identity()

    def forward(self, x):
        return self.fc(self.features(x))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--ckpt", default=None)
    ap.add_argument("--num-classes", type=int, default=10)
    ap.add_argument("--epochs", type=int, default=3)
    args = ap.parse_args()
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")

    model = Backbone()
    if args.ckpt:
        model.load_state_dict(torch.load(args.ckpt, map_location="cpu"))
    model.to(device)
    for p in model.parameters():
        p.requires_grad = False
    model.fc = nn.Linear(64, args.num_classes)  # expect: DEV015
    opt = torch.optim.SGD(model.fc.parameters(), lr=0.1, momentum=0.9)

    train = TensorDataset(torch.randn(512, 48), torch.randint(0, args.num_classes, (512,)))
    val = TensorDataset(torch.randn(128, 48), torch.randint(0, args.num_classes, (128,)))
    train_loader = DataLoader(train, batch_size=64, shuffle=True)
    val_loader = DataLoader(val, batch_size=64)
    val_acc = MulticlassAccuracy(num_classes=args.num_classes)  # expect: DEV019

    for epoch in range(args.epochs):
        model.train()
        for x, y in train_loader:
            x, y = x.to(device), y.to(device)
            loss = F.cross_entropy(model(x), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
        model.eval()
        val_acc.reset()
        with torch.no_grad():
            for x, y in val_loader:
                x, y = x.to(device), y.to(device)
                val_acc.update(model(x), y)
        print(f"epoch {epoch}: linear-probe acc {val_acc.compute().item():.3f}")


if __name__ == "__main__":
    main()
