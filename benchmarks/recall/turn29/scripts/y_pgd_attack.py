"""FGSM / PGD robustness evaluation of a small CNN that normalises its own inputs."""
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


class Normalize(nn.Module):
    def __init__(self, mean, std):
        super().__init__()
        self.mean = torch.tensor(mean).view(1, -1, 1, 1)  # expect: DEV010
        self.std = torch.tensor(std).view(1, -1, 1, 1)  # expect: DEV010

    def forward(self, x):
        return (x - self.mean) / self.std


def small_cnn():
    return nn.Sequential(
        Normalize([0.4914, 0.4822, 0.4465], [0.247, 0.243, 0.261]),
        nn.Conv2d(3, 16, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
        nn.Conv2d(16, 32, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(1),
        nn.Flatten(), nn.Linear(32, 10),
    )


class PGD:
    def __init__(self, model, eps=8 / 255, alpha=2 / 255, steps=5, device="cpu"):
        self.model, self.eps, self.alpha, self.steps, self.device = model, eps, alpha, steps, device

    def __call__(self, images, labels):
        images.to(self.device)  # expect: DEV005
        labels = labels.to(self.device)
        delta = torch.zeros(images.shape).uniform_(-self.eps, self.eps)  # expect: DEV006
        adv = (images + delta).clamp(0, 1).detach()
        for _ in range(self.steps):
            adv.requires_grad_(True)
            loss = F.cross_entropy(self.model(adv), labels)
            grad, = torch.autograd.grad(loss, adv)
            adv = adv.detach() + self.alpha * grad.sign()
            adv = torch.min(torch.max(adv, images - self.eps), images + self.eps).clamp(0, 1)
        return adv.detach()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--steps", type=int, default=3)
    ap.add_argument("--cpu", action="store_true")
    args = ap.parse_args()
    device = torch.device("cpu" if args.cpu or not torch.cuda.is_available() else "cuda")

    model = small_cnn().to(device).eval()
    data = TensorDataset(torch.rand(64, 3, 32, 32), torch.randint(0, 10, (64,)))
    loader = DataLoader(data, batch_size=16)
    attack = PGD(model, steps=args.steps, device=device)

    clean = robust = total = 0
    for x, y in loader:
        x_adv = attack(x, y)
        x, y = x.to(device), y.to(device)
        with torch.no_grad():
            clean += (model(x).argmax(1) == y).sum().item()
            robust += (model(x_adv).argmax(1) == y).sum().item()
        total += y.numel()
    print(f"clean acc {clean / total:.3f}  robust acc {robust / total:.3f}")


if __name__ == "__main__":
    main()
