"""FixMatch-style training with the labelled targets moved alongside the inputs
and pseudo-label confidences copied to the host before NumPy."""
import argparse

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset, TensorDataset


class TwoViewDataset(Dataset):
    def __init__(self, x):
        self.x = x

    def __len__(self):
        return len(self.x)

    def __getitem__(self, i):
        v = self.x[i]
        weak = v + 0.05 * torch.randn_like(v)
        strong = v * (torch.rand_like(v) > 0.3) + 0.3 * torch.randn_like(v)
        return (weak, strong), -1


class Net(nn.Module):
    def __init__(self, d=16, n_cls=4):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(d, 64), nn.ReLU(), nn.Linear(64, 64), nn.ReLU())
        self.fc = nn.Linear(64, n_cls)

    def forward(self, x):
        return self.fc(self.body(x))


def get_args():
    p = argparse.ArgumentParser()
    p.add_argument("--steps", type=int, default=60)
    p.add_argument("--threshold", type=float, default=0.95)
    p.add_argument("--lambda-u", type=float, default=1.0)
    p.add_argument("--mu", type=int, default=4)
    p.add_argument("--device", default="cuda" if torch.cuda.is_available() else "cpu")
    return p.parse_args()


def main():
    args = get_args()
    device = torch.device(args.device)
    torch.manual_seed(0)
    centers = torch.randn(4, 16) * 2
    y_all = torch.randint(0, 4, (600,))
    x_all = centers[y_all] + torch.randn(600, 16)

    labeled = DataLoader(TensorDataset(x_all[:40], y_all[:40]), batch_size=8, shuffle=True, drop_last=True)
    unlabeled = DataLoader(TwoViewDataset(x_all[40:]), batch_size=8 * args.mu, shuffle=True, drop_last=True)

    model = Net().to(device)
    opt = torch.optim.SGD(model.parameters(), lr=0.03, momentum=0.9, nesterov=True)
    labeled_iter, unlabeled_iter = iter(labeled), iter(unlabeled)

    for step in range(args.steps):
        try:
            inputs_x, targets_x = next(labeled_iter)
        except StopIteration:
            labeled_iter = iter(labeled)
            inputs_x, targets_x = next(labeled_iter)
        try:
            (inputs_u_w, inputs_u_s), _ = next(unlabeled_iter)
        except StopIteration:
            unlabeled_iter = iter(unlabeled)
            (inputs_u_w, inputs_u_s), _ = next(unlabeled_iter)

        bs = inputs_x.shape[0]
        inputs = torch.cat((inputs_x, inputs_u_w, inputs_u_s)).to(device)
        targets_x = targets_x.to(device)
        logits = model(inputs)
        logits_x = logits[:bs]
        logits_u_w, logits_u_s = logits[bs:].chunk(2)

        Lx = F.cross_entropy(logits_x, targets_x, reduction="mean")

        pseudo = torch.softmax(logits_u_w.detach(), dim=-1)
        max_probs, targets_u = pseudo.max(dim=-1)
        mask = max_probs.ge(args.threshold).float()
        Lu = (F.cross_entropy(logits_u_s, targets_u, reduction="none") * mask).mean()
        loss = Lx + args.lambda_u * Lu

        opt.zero_grad()
        loss.backward()
        opt.step()

        if step % 20 == 0:
            hist, _ = np.histogram(max_probs.cpu().numpy(), bins=5, range=(0.0, 1.0))
            print(f"step {step} Lx={Lx.item():.3f} Lu={Lu.item():.3f} "
                  f"mask={mask.mean().item():.2f} conf_hist={hist.tolist()}")


if __name__ == "__main__":
    main()
