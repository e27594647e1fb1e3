"""Mean-teacher semi-supervised fine-tuning: the teacher is an EMA of the student and
gives consistency targets on unlabeled, weakly augmented inputs."""
import copy
import itertools

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


class SmallCNN(nn.Module):
    def __init__(self, n_cls=10):
        super().__init__()
        self.body = nn.Sequential(
            nn.Conv2d(1, 16, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
            nn.Conv2d(16, 32, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten())
        self.head = nn.Linear(32, n_cls)

    def forward(self, x):
        return self.head(self.body(x))


def weak_aug(x):
    return x + 0.05 * torch.randn_like(x)


@torch.no_grad()
def update_teacher(teacher, student, decay):
    for t, s in zip(teacher.parameters(), student.parameters()):
        t.mul_(decay).add_(s.detach(), alpha=1 - decay)


def consistency_weight(step, rampup=20, max_w=1.0):
    return max_w * min(1.0, step / rampup)


def main():
    torch.manual_seed(0)
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    labeled = DataLoader(TensorDataset(torch.randn(32, 1, 16, 16), torch.randint(0, 10, (32,))),
                         batch_size=8, shuffle=True)
    unlabeled = DataLoader(TensorDataset(torch.randn(96, 1, 16, 16)), batch_size=16, shuffle=True)

    student = SmallCNN()
    teacher = copy.deepcopy(student)  # expect: DEV016
    for p in teacher.parameters():
        p.requires_grad_(False)
    student = student.to(device)

    optimizer = torch.optim.Adam(student.parameters(), lr=1e-3)
    step = 0
    for epoch in range(2):
        student.train()
        teacher.train()
        for (x, y), (u,) in zip(itertools.cycle(labeled), unlabeled):
            x, y, u = x.to(device), y.to(device), u.to(device)
            sup = F.cross_entropy(student(x), y)
            with torch.no_grad():
                t_probs = F.softmax(teacher(weak_aug(u)), dim=1)
            s_logp = F.log_softmax(student(weak_aug(u)), dim=1)
            cons = F.kl_div(s_logp, t_probs, reduction="batchmean")
            loss = sup + consistency_weight(step) * cons
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            update_teacher(teacher, student, decay=0.99)
            step += 1
        print(f"epoch {epoch} sup {sup.item():.3f} cons {cons.item():.4f}")


if __name__ == "__main__":
    main()
