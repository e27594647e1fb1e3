"""Fine-tune a pretrained backbone on the small defect set with stratified k-fold CV.

    python h_kfold_finetune_head.py                       # CV, saves the best fold
    python h_kfold_finetune_head.py --eval-only ckpt.pt   # score a saved fold model
"""
import argparse
import copy
from dataclasses import dataclass, field

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


@dataclass
class CVConfig:
    n_folds: int = 3
    num_classes: int = 4
    pretrain_classes: int = 10
    epochs: int = 2
    batch_size: int = 16
    lr: float = 0.02
    image_size: int = 32
    device: str = field(default_factory=lambda: "cuda" if torch.cuda.is_available() else "cpu")


class Block(nn.Module):
    def __init__(self, c_in, c_out, stride):
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
        self.layer1 = Block(16, 16, 1)
        self.layer2 = Block(16, 32, 2)
        self.layer3 = Block(32, 64, 2)
        self.pool = nn.AdaptiveAvgPool2d(1)
        self.fc = nn.Linear(64, num_classes)

    def forward(self, x):
        x = self.layer3(self.layer2(self.layer1(self.stem(x))))
        return self.fc(torch.flatten(self.pool(x), 1))


def pretrained_backbone_state(cfg):
    # stands in for the ImageNet-ish checkpoint we start every run from
    torch.manual_seed(123)
    return SmallResNet(cfg.pretrain_classes).state_dict()


def load_backbone(cfg, state):
    model = SmallResNet(cfg.pretrain_classes)
    model.load_state_dict(state)
    return model.to(cfg.device)


def make_dataset(cfg, n=144, seed=0):
    g = torch.Generator().manual_seed(seed)
    y = torch.arange(n) % cfg.num_classes
    x = torch.randn(n, 3, cfg.image_size, cfg.image_size, generator=g)
    x[:, 0] += y.view(-1, 1, 1).float() * 0.5  # make the classes separable
    return x, y


def stratified_folds(y, k, seed=0):
    rng = np.random.default_rng(seed)
    fold_of = np.empty(len(y), dtype=int)
    for c in np.unique(y):
        idx = np.where(y == c)[0]
        rng.shuffle(idx)
        fold_of[idx] = np.arange(len(idx)) % k
    for f in range(k):
        yield f, np.where(fold_of != f)[0], np.where(fold_of == f)[0]


def accuracy(model, loader, device):
    model.eval()
    correct = total = 0
    with torch.no_grad():
        for xb, yb in loader:
            xb, yb = xb.to(device), yb.to(device)
            correct += (model(xb).argmax(1) == yb).sum().item()
            total += yb.numel()
    return correct / max(total, 1)


def train_fold(cfg, backbone_state, x, y, tr, va):
    model = load_backbone(cfg, backbone_state)
    # new task, new classifier
    model.fc = nn.Linear(model.fc.in_features, cfg.num_classes)  # expect: DEV015
    optimizer = torch.optim.SGD(model.parameters(), lr=cfg.lr, momentum=0.9, nesterov=True)
    scheduler = torch.optim.lr_scheduler.CosineAnnealingLR(optimizer, T_max=cfg.epochs)
    train_loader = DataLoader(TensorDataset(x[tr], y[tr]), batch_size=cfg.batch_size, shuffle=True)
    val_loader = DataLoader(TensorDataset(x[va], y[va]), batch_size=64)

    best_acc, best_state = -1.0, None
    for epoch in range(cfg.epochs):
        model.train()
        for xb, yb in train_loader:
            xb, yb = xb.to(cfg.device), yb.to(cfg.device)
            optimizer.zero_grad(set_to_none=True)
            loss = F.cross_entropy(model(xb), yb, label_smoothing=0.1)
            loss.backward()
            optimizer.step()
        scheduler.step()
        acc = accuracy(model, val_loader, cfg.device)
        if acc > best_acc:
            best_acc, best_state = acc, copy.deepcopy(model.state_dict())
    return best_acc, best_state


def evaluate_checkpoint(cfg, path):
    state = torch.load(path)  # expect: DEV008
    model = SmallResNet(cfg.num_classes)
    model.load_state_dict(state["model"])
    model.to(cfg.device)
    x, y = make_dataset(cfg, seed=1)
    loader = DataLoader(TensorDataset(x, y), batch_size=64)
    print(f"{path}: fold {state['fold']} acc {accuracy(model, loader, cfg.device):.3f}")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--eval-only", metavar="CKPT", default=None)
    parser.add_argument("--folds", type=int, default=3)
    parser.add_argument("--epochs", type=int, default=2)
    parser.add_argument("--out", default="best_fold.pt")
    args = parser.parse_args()
    cfg = CVConfig(n_folds=args.folds, epochs=args.epochs)

    if args.eval_only:
        evaluate_checkpoint(cfg, args.eval_only)
        return

    backbone_state = pretrained_backbone_state(cfg)
    x, y = make_dataset(cfg)
    results = []
    for fold, tr, va in stratified_folds(y.numpy(), cfg.n_folds):
        acc, state = train_fold(cfg, backbone_state, x, y, tr, va)
        print(f"fold {fold}: best val acc {acc:.3f}")
        results.append((acc, fold, state))
    accs = [r[0] for r in results]
    print(f"CV accuracy {np.mean(accs):.3f} +- {np.std(accs):.3f}")
    best_acc, best_fold, best_state = max(results, key=lambda r: r[0])
    torch.save({"fold": best_fold, "acc": best_acc, "model": best_state}, args.out)
    print("saved", args.out)


if __name__ == "__main__":
    main()
