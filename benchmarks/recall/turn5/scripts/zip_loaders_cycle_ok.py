"""Semi-supervised training (FixMatch-like) with a labelled loader zipped to a cycled unlabelled
loader; every batch is moved, pseudo-labels are made from device outputs."""
import argparse
import itertools

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=3)
    parser.add_argument("--threshold", type=float, default=0.9)
    args = parser.parse_args()
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    xl, yl = torch.randn(500, 32), torch.randint(0, 4, (500,))
    xu = torch.randn(5000, 32)
    labelled = DataLoader(TensorDataset(xl, yl), batch_size=32, shuffle=True)
    unlabelled = DataLoader(TensorDataset(xu), batch_size=96, shuffle=True, drop_last=True)
    model = nn.Sequential(nn.Linear(32, 128), nn.ReLU(), nn.Dropout(0.2), nn.Linear(128, 4)).to(device)
    opt = torch.optim.SGD(model.parameters(), lr=0.03, momentum=0.9, nesterov=True)
    for epoch in range(args.epochs):
        for (x, y), (u,) in zip(labelled, itertools.cycle(unlabelled)):
            x, y, u = x.to(device), y.to(device), u.to(device)
            weak = u + 0.05 * torch.randn_like(u)
            strong = u + 0.3 * torch.randn_like(u)
            with torch.no_grad():
                conf, pseudo = model(weak).softmax(-1).max(-1)
            mask = (conf >= args.threshold).float()
            loss_u = (F.cross_entropy(model(strong), pseudo, reduction="none") * mask).mean()
            loss = F.cross_entropy(model(x), y) + loss_u
            opt.zero_grad()
            loss.backward()
            opt.step()
        print(epoch, loss.item(), mask.mean().item())


if __name__ == "__main__":
    main()
