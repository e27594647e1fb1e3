"""FixMatch-style semi-supervised training: a labelled loader and an unlabelled loader that
yields weak and strong views are zipped each step."""
import itertools

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset, TensorDataset


class TwoViews(Dataset):
    def __init__(self, x):
        self.x = x

    def __len__(self):
        return len(self.x)

    def __getitem__(self, i):
        v = self.x[i]
        weak = v + 0.05 * torch.randn_like(v)
        strong = v * (torch.rand_like(v) > 0.3) + 0.3 * torch.randn_like(v)
        return weak, strong


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    xl = torch.randn(100, 16)
    yl = (xl[:, 0] > 0).long()
    xu = torch.randn(700, 16)
    labelled = DataLoader(TensorDataset(xl, yl), batch_size=16, shuffle=True)
    unlabelled = DataLoader(TwoViews(xu), batch_size=64, shuffle=True)
    model = nn.Sequential(nn.Linear(16, 64), nn.ReLU(), nn.Linear(64, 2)).to(device)
    opt = torch.optim.SGD(model.parameters(), lr=0.03, momentum=0.9)
    for epoch in range(2):
        for (xb, yb), (u_weak, u_strong) in zip(itertools.cycle(labelled), unlabelled):
            xb, yb, u_weak = xb.to(device), yb.to(device), u_weak.to(device)
            sup = F.cross_entropy(model(xb), yb)
            with torch.no_grad():
                probs = F.softmax(model(u_weak), dim=-1)
                conf, pseudo = probs.max(-1)
                mask = (conf > 0.95).float()
            unsup = (F.cross_entropy(model(u_strong), pseudo, reduction="none") * mask).mean()  # expect: DEV002
            loss = sup + unsup
            opt.zero_grad()
            loss.backward()
            opt.step()
    print(loss.item())


if __name__ == "__main__":
    main()
