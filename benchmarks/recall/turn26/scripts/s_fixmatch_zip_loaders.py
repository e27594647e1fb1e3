"""FixMatch-style semi-supervised training: a labelled and an unlabelled loader zipped."""
import argparse
import itertools

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset, TensorDataset


class TwoViews(Dataset):
    """Unlabelled images with a weak (flip) and a strong (noise + cutout) view."""

    def __init__(self, images):
        self.images = images

    def __len__(self):
        return len(self.images)

    def __getitem__(self, i):
        img = self.images[i]
        weak = torch.flip(img, dims=[2]) if torch.rand(()) < 0.5 else img
        strong = weak + 0.3 * torch.randn_like(weak)
        y0, x0 = torch.randint(0, 12, (2,)).tolist()
        strong = strong.clone()
        strong[:, y0:y0 + 4, x0:x0 + 4] = 0
        return weak, strong


def small_cnn(k=5):
    return nn.Sequential(nn.Conv2d(3, 16, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
                         nn.Conv2d(16, 32, 3, padding=1), nn.ReLU(),
                         nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(32, k))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--steps", type=int, default=20)
    ap.add_argument("--tau", type=float, default=0.95)
    ap.add_argument("--lambda-u", type=float, default=1.0)
    ap.add_argument("--mu", type=int, default=3, help="unlabelled/labelled batch ratio")
    args = ap.parse_args()
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")

    lab = TensorDataset(torch.randn(100, 3, 16, 16), torch.randint(0, 5, (100,)))
    unl = TwoViews(torch.randn(600, 3, 16, 16))
    lab_loader = DataLoader(lab, batch_size=16, shuffle=True, drop_last=True)
    unl_loader = DataLoader(unl, batch_size=16 * args.mu, shuffle=True, drop_last=True)

    model = small_cnn().to(device)
    opt = torch.optim.SGD(model.parameters(), lr=0.03, momentum=0.9, nesterov=True)

    step = 0
    for (x_l, y_l), (u_weak, u_strong) in zip(itertools.cycle(lab_loader), unl_loader):
        x_l = x_l.to(device)
        u_weak = u_weak.to(device)
        u_strong.to(device)  # expect: DEV005

        logits_l = model(x_l)
        loss_s = F.cross_entropy(logits_l, y_l)  # expect: DEV004
        with torch.no_grad():
            probs = model(u_weak).softmax(dim=-1)
            conf, pseudo = probs.max(dim=-1)
            mask = (conf >= args.tau).float()
        logits_s = model(u_strong)  # also: DEV002
        loss_u = (F.cross_entropy(logits_s, pseudo, reduction="none") * mask).mean()
        loss = loss_s + args.lambda_u * loss_u

        opt.zero_grad()
        loss.backward()
        opt.step()
        step += 1
        if step % 5 == 0:
            print(f"step {step}: sup {loss_s.item():.3f} unsup {loss_u.item():.3f} "
                  f"mask {mask.mean().item():.2f}")
        if step >= args.steps:
            break


if __name__ == "__main__":
    main()
