"""Pseudo-labelling (FixMatch-lite) with a labelled and an unlabelled loader zipped together."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


def weak_aug(x):
    return x + 0.05 * torch.randn_like(x)


def strong_aug(x):
    mask = (torch.rand_like(x) > 0.2).float()
    return x * mask + 0.2 * torch.randn_like(x)


class MLP(nn.Module):
    def __init__(self, d_in=20, n_classes=3):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(d_in, 64), nn.ReLU(), nn.Linear(64, n_classes))

    def forward(self, x):
        return self.net(x)


def train_epoch(model, labeled_loader, unlabeled_loader, opt, device, threshold=0.7, lambda_u=1.0):
    model.train()
    for (x_l, y_l), (x_u,) in zip(labeled_loader, unlabeled_loader):
        x_l, y_l = x_l.to(device), y_l.to(device)
        sup_loss = F.cross_entropy(model(weak_aug(x_l)), y_l)

        with torch.no_grad():
            probs_u = F.softmax(model(weak_aug(x_u)), dim=1)  # expect: DEV002
            conf, pseudo = probs_u.max(dim=1)
            mask = (conf >= threshold).float()
        logits_s = model(strong_aug(x_u))  # also: DEV002
        unsup_loss = (F.cross_entropy(logits_s, pseudo, reduction="none") * mask).mean()

        loss = sup_loss + lambda_u * unsup_loss
        opt.zero_grad()
        loss.backward()
        opt.step()
    return sup_loss.item(), unsup_loss.item(), mask.mean().item()


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    g = torch.Generator().manual_seed(0)
    x_lab = torch.randn(96, 20, generator=g)
    y_lab = torch.randint(0, 3, (96,), generator=g)
    x_unl = torch.randn(480, 20, generator=g)
    labeled = DataLoader(TensorDataset(x_lab, y_lab), batch_size=16, shuffle=True, drop_last=True)
    unlabeled = DataLoader(TensorDataset(x_unl), batch_size=16 * 5, shuffle=True, drop_last=True)

    model = MLP().to(device)
    opt = torch.optim.SGD(model.parameters(), lr=0.03, momentum=0.9, nesterov=True)
    for epoch in range(3):
        s, u, m = train_epoch(model, labeled, unlabeled, opt, device)
        print(f"epoch {epoch} sup {s:.3f} unsup {u:.3f} mask {m:.2f}")


if __name__ == "__main__":
    main()
