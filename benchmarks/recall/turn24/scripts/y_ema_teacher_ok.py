"""Mean-teacher style training: the EMA copy of the student is the teacher for a consistency loss."""
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


class ModelEMA:
    """Keeps an exponential moving average of a model's weights."""

    def __init__(self, model, decay=0.99):
        self.module = copy.deepcopy(model)
        self.module.eval()
        self.decay = decay
        for p in self.module.parameters():
            p.requires_grad_(False)

    @torch.no_grad()
    def update(self, model):
        for ema_p, p in zip(self.module.parameters(), model.parameters()):
            ema_p.mul_(self.decay).add_(p.detach(), alpha=1 - self.decay)
        for ema_b, b in zip(self.module.buffers(), model.buffers()):
            ema_b.copy_(b)


def make_net():
    return nn.Sequential(nn.Linear(10, 64), nn.BatchNorm1d(64), nn.ReLU(), nn.Dropout(0.2), nn.Linear(64, 3))


def augment(x, scale=0.1):
    return x + scale * torch.randn_like(x)


def main():
    device = "cuda" if torch.cuda.is_available() else "cpu"
    g = torch.Generator().manual_seed(6)
    x_lab = torch.randn(120, 10, generator=g)
    y_lab = (x_lab[:, 0] > 0).long() + (x_lab[:, 1] > 1).long()
    x_unl = torch.randn(600, 10, generator=g)
    lab_loader = DataLoader(TensorDataset(x_lab, y_lab), batch_size=16, shuffle=True, drop_last=True)
    unl_loader = DataLoader(TensorDataset(x_unl), batch_size=64, shuffle=True, drop_last=True)

    student = make_net().to(device)
    teacher = ModelEMA(student, decay=0.95)
    opt = torch.optim.SGD(student.parameters(), lr=0.05, momentum=0.9)

    for epoch in range(4):
        student.train()
        for (xl, yl), (xu,) in zip(lab_loader, unl_loader):
            xl, yl, xu = xl.to(device), yl.to(device), xu.to(device)
            sup = F.cross_entropy(student(augment(xl)), yl)
            with torch.no_grad():
                t_prob = F.softmax(teacher.module(augment(xu)), dim=1)
            s_logp = F.log_softmax(student(augment(xu)), dim=1)
            cons = F.kl_div(s_logp, t_prob, reduction="batchmean")
            loss = sup + 0.5 * cons
            opt.zero_grad()
            loss.backward()
            opt.step()
            teacher.update(student)
        print(f"epoch {epoch}: sup {sup.item():.3f} cons {cons.item():.3f}")

    with torch.no_grad():
        acc = (teacher.module(x_lab.to(device)).argmax(1) == y_lab.to(device)).float().mean()
    print("teacher train acc", round(acc.item(), 3))


if __name__ == "__main__":
    main()
