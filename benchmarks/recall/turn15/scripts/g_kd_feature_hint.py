"""Feature + logit distillation (FitNets-style hint) for a small audio-event student."""
import argparse
import os

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


class ConvNet(nn.Module):
    def __init__(self, width, n_classes=10):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(1, width, 3, padding=1), nn.BatchNorm2d(width), nn.ReLU(), nn.MaxPool2d(2),
            nn.Conv2d(width, 2 * width, 3, padding=1), nn.BatchNorm2d(2 * width), nn.ReLU(),
            nn.AdaptiveAvgPool2d(1), nn.Flatten())
        self.fc = nn.Linear(2 * width, n_classes)

    def forward(self, x):
        f = self.features(x)
        return f, self.fc(f)


def pick_devices():
    if torch.cuda.device_count() > 1:
        return torch.device("cuda:0"), torch.device("cuda:1")
    dev = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    return dev, dev


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--teacher-ckpt", default="")
    ap.add_argument("--epochs", type=int, default=2)
    ap.add_argument("--T", type=float, default=3.0)
    ap.add_argument("--hint-weight", type=float, default=0.5)
    args = ap.parse_args()
    s_dev, t_dev = pick_devices()

    teacher = ConvNet(width=64)
    if args.teacher_ckpt and os.path.isfile(args.teacher_ckpt):
        teacher.load_state_dict(torch.load(args.teacher_ckpt, map_location="cpu"))
    teacher = teacher.to(t_dev).eval().requires_grad_(False)

    student = ConvNet(width=16)
    student.hint = nn.Linear(32, 128)  # maps student features onto the teacher's width
    student.to(s_dev)
    opt = torch.optim.SGD(student.parameters(), lr=0.05, momentum=0.9)

    x = torch.randn(160, 1, 32, 32)
    y = torch.randint(0, 10, (160,))
    loader = DataLoader(TensorDataset(x, y), batch_size=32, shuffle=True)

    for epoch in range(args.epochs):
        for xb, yb in loader:
            with torch.no_grad():
                t_feat, t_logits = teacher(xb.to(t_dev, non_blocking=True))
            t_feat, t_logits = t_feat.to(s_dev), t_logits.to(s_dev)
            xb, yb = xb.to(s_dev), yb.to(s_dev)
            s_feat, s_logits = student(xb)
            kd = F.kl_div(F.log_softmax(s_logits / args.T, -1), F.log_softmax(t_logits / args.T, -1),
                          log_target=True, reduction="batchmean") * args.T ** 2
            hint = F.mse_loss(student.hint(s_feat), t_feat)
            loss = F.cross_entropy(s_logits, yb) + kd + args.hint_weight * hint
            opt.zero_grad()
            loss.backward()
            opt.step()
        print(f"epoch {epoch} loss {loss.item():.3f} (kd {kd.item():.3f}, hint {hint.item():.3f})")


if __name__ == "__main__":
    main()
