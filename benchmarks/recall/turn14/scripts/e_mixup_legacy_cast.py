# CIFAR-style mixup training on random images (keeps the script offline).
# train_step() is shared with the notebook version, hence the device argument.
import argparse

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


def mixup_batch(x, y, alpha, num_classes):
    lam = float(np.random.beta(alpha, alpha)) if alpha > 0 else 1.0
    index = torch.randperm(x.size(0), device=x.device)
    y_onehot = F.one_hot(y, num_classes).type(torch.FloatTensor)  # expect: DEV021
    mixed_x = lam * x + (1 - lam) * x[index]
    mixed_y = lam * y_onehot + (1 - lam) * y_onehot[index]
    return mixed_x, mixed_y


def soft_cross_entropy(logits, soft_targets):
    return torch.sum(-soft_targets * F.log_softmax(logits, dim=-1), dim=-1).mean()


def train_step(model, batch, optimizer, device, alpha, num_classes):
    model.to(device)  # expect: DEV007
    model.train()
    x, y = batch
    x, y = x.to(device, non_blocking=True), y.to(device, non_blocking=True)
    x, y_soft = mixup_batch(x, y, alpha, num_classes)
    loss = soft_cross_entropy(model(x), y_soft)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    return loss.item()


def make_net(num_classes):
    return nn.Sequential(
        nn.Conv2d(3, 32, 3, padding=1), nn.BatchNorm2d(32), nn.ReLU(), nn.MaxPool2d(2),
        nn.Conv2d(32, 64, 3, padding=1), nn.BatchNorm2d(64), nn.ReLU(), nn.MaxPool2d(2),
        nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(64, num_classes),
    )


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--alpha", type=float, default=0.4)
    parser.add_argument("--epochs", type=int, default=2)
    parser.add_argument("--batch-size", type=int, default=32)
    parser.add_argument("--no-cuda", action="store_true", default=False)
    args = parser.parse_args()

    use_cuda = not args.no_cuda and torch.cuda.is_available()
    device = torch.device("cuda" if use_cuda else "cpu")
    num_classes = 10

    x = torch.randn(256, 3, 32, 32)
    y = torch.randint(0, num_classes, (256,))
    loader = DataLoader(TensorDataset(x, y), batch_size=args.batch_size, shuffle=True,
                        pin_memory=use_cuda)

    model = make_net(num_classes)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9, weight_decay=5e-4)
    for epoch in range(args.epochs):
        losses = [train_step(model, batch, optimizer, device, args.alpha, num_classes) for batch in loader]
        print(f"epoch {epoch}: mixup loss {np.mean(losses):.4f}")


if __name__ == "__main__":
    main()
