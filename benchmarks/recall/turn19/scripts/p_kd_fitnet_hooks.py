"""FitNets-style feature distillation plus logit distillation.

Intermediate features are captured with forward hooks; a 1x1 conv adapter maps
the student's feature width onto the teacher's. The student also keeps an EMA
copy that is used for evaluation.
"""
import argparse
import copy
import os

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


class Net(nn.Module):
    def __init__(self, width, num_classes=6):
        super().__init__()
        self.stem = nn.Sequential(nn.Conv2d(3, width, 3, padding=1), nn.BatchNorm2d(width), nn.ReLU())
        self.body = nn.Sequential(nn.Conv2d(width, 2 * width, 3, stride=2, padding=1), nn.BatchNorm2d(2 * width), nn.ReLU())
        self.head = nn.Sequential(nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(2 * width, num_classes))

    def forward(self, x):
        return self.head(self.body(self.stem(x)))


class FeatureHook:
    def __init__(self, module):
        self.feat = None
        self.handle = module.register_forward_hook(self._hook)

    def _hook(self, module, inputs, output):
        self.feat = output

    def remove(self):
        self.handle.remove()


def toy_data(n, seed):
    g = torch.Generator().manual_seed(seed)
    y = torch.randint(0, 6, (n,), generator=g)
    x = torch.randn(n, 3, 16, 16, generator=g) * 0.5
    x[:, y % 3] += (y // 3).float().view(-1, 1, 1) + 0.5
    return TensorDataset(x, y)


@torch.no_grad()
def ema_update(ema, model, decay=0.99):
    for e, p in zip(ema.state_dict().values(), model.state_dict().values()):
        if e.dtype.is_floating_point:
            e.mul_(decay).add_(p, alpha=1 - decay)
        else:
            e.copy_(p)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--teacher-ckpt", default="/tmp/p_fitnet_teacher.pt")
    ap.add_argument("--epochs", type=int, default=2)
    ap.add_argument("--beta", type=float, default=50.0, help="weight of the hint loss")
    args = ap.parse_args()
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")

    if not os.path.exists(args.teacher_ckpt):
        torch.save(Net(32).state_dict(), args.teacher_ckpt)  # untrained stand-in for the demo
    teacher = Net(32)
    teacher.load_state_dict(torch.load(args.teacher_ckpt, map_location=device))
    teacher.to(device).eval().requires_grad_(False)

    student = Net(8).to(device)
    adapter = nn.Conv2d(16, 64, kernel_size=1).to(device)
    ema_student = copy.deepcopy(student).eval()

    t_hook, s_hook = FeatureHook(teacher.body), FeatureHook(student.body)
    train = toy_data(384, 0)
    counts = torch.bincount(train.tensors[1], minlength=6).float()
    criterion = nn.CrossEntropyLoss(weight=(counts.sum() / counts).to(device))
    params = list(student.parameters()) + list(adapter.parameters())
    optimizer = torch.optim.SGD(params, lr=0.05, momentum=0.9, nesterov=True)
    loader = DataLoader(train, batch_size=64, shuffle=True)
    T = 4.0

    for epoch in range(args.epochs):
        student.train()
        for x, y in loader:
            x, y = x.to(device), y.to(device)
            with torch.no_grad():
                t_logits = teacher(x)
            s_logits = student(x)
            hint = F.mse_loss(adapter(s_hook.feat), t_hook.feat)
            kd = F.kl_div(F.log_softmax(s_logits / T, 1), F.softmax(t_logits / T, 1), reduction="batchmean") * T * T
            loss = criterion(s_logits, y) + kd + args.beta * hint
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            ema_update(ema_student, student)

        correct = total = 0
        with torch.no_grad():
            for x, y in DataLoader(toy_data(128, 1), batch_size=64):
                pred = ema_student(x.to(device)).argmax(1)
                correct += (pred == y.to(device)).sum().item()
                total += y.size(0)
        print(f"epoch {epoch}: loss {loss.item():.3f}  ema acc {correct / total:.3f}")

    t_hook.remove()
    s_hook.remove()


if __name__ == "__main__":
    main()
