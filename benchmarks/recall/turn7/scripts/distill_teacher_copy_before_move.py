"""Self-distillation: a frozen teacher is a copy of the student's initial weights, the student is
trained to match it on noisy inputs while fitting the labels."""
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    student = nn.Sequential(nn.Linear(12, 48), nn.GELU(), nn.Linear(48, 3))
    teacher = copy.deepcopy(student).eval()  # expect: DEV016
    for p in teacher.parameters():
        p.requires_grad_(False)
    student = student.to(device)
    opt = torch.optim.Adam(student.parameters(), lr=1e-3)
    for _ in range(20):
        x = torch.randn(32, 12, device=device)
        y = torch.randint(0, 3, (32,), device=device)
        with torch.no_grad():
            soft = F.softmax(teacher(x) / 2.0, -1)
        out = student(x + 0.1 * torch.randn_like(x))
        loss = F.cross_entropy(out, y) + F.kl_div(F.log_softmax(out / 2.0, -1), soft, reduction="batchmean")
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(loss.item())


if __name__ == "__main__":
    main()
