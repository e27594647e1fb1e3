# Pseudo-label semi-supervised training (FixMatch-lite) on synthetic data
import itertools

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)
DEVICE = "cuda" if torch.cuda.is_available() else "cpu"
THRESHOLD = 0.9
LAMBDA_U = 1.0


def weak_aug(x):
    return x + 0.05 * torch.randn_like(x)


def strong_aug(x):
    return x * (torch.rand_like(x) > 0.2) + 0.2 * torch.randn_like(x)


labeled = TensorDataset(torch.randn(64, 10), torch.randint(0, 3, (64,)))
unlabeled = TensorDataset(torch.randn(448, 10), torch.zeros(448, dtype=torch.long))
lab_loader = DataLoader(labeled, batch_size=16, shuffle=True, drop_last=True)
unlab_loader = DataLoader(unlabeled, batch_size=112, shuffle=True, drop_last=True)

model = nn.Sequential(nn.Linear(10, 64), nn.ReLU(), nn.Linear(64, 3)).to(DEVICE)
opt = torch.optim.SGD(model.parameters(), lr=0.03, momentum=0.9, nesterov=True)

for epoch in range(3):
    model.train()
    for (x_l, y_l), (x_u, _) in zip(itertools.cycle(lab_loader), unlab_loader):
        x_l, y_l = x_l.to(DEVICE), y_l.to(DEVICE)
        logits_l = model(x_l)
        sup = F.cross_entropy(logits_l, y_l)

        with torch.no_grad():
            probs = F.softmax(model(weak_aug(x_u)), dim=-1)  # expect: DEV002
            conf, pseudo = probs.max(dim=-1)
            mask = (conf >= THRESHOLD).float()
        logits_u = model(strong_aug(x_u))  # also: DEV002
        unsup = (F.cross_entropy(logits_u, pseudo, reduction="none") * mask).mean()

        loss = sup + LAMBDA_U * unsup
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(f"epoch {epoch} loss {loss.item():.3f} mask {mask.mean().item():.2f}")
