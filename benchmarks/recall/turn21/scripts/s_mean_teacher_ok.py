"""Self-distillation with an EMA teacher (DINO-style centering, heavily reduced). The
teacher is copied from the student after the student was moved, and the centre is a
buffer created on the device."""
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F


class Encoder(nn.Module):
    def __init__(self, d_in=32, d_out=16):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(d_in, 64), nn.GELU(), nn.Linear(64, d_out))

    def forward(self, x):
        return self.net(x)


class DinoLoss(nn.Module):
    def __init__(self, dim, t_student=0.1, t_teacher=0.04, momentum=0.9):
        super().__init__()
        self.ts, self.tt, self.m = t_student, t_teacher, momentum
        self.register_buffer("center", torch.zeros(1, dim))

    def forward(self, s_out, t_out):
        t = F.softmax((t_out - self.center) / self.tt, dim=-1)
        loss = torch.sum(-t * F.log_softmax(s_out / self.ts, dim=-1), dim=-1).mean()
        with torch.no_grad():
            self.center.mul_(self.m).add_(t_out.mean(0, keepdim=True), alpha=1 - self.m)
        return loss


def main():
    torch.manual_seed(0)
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    student = Encoder().to(device)
    teacher = copy.deepcopy(student)
    teacher.requires_grad_(False)
    criterion = DinoLoss(16).to(device)
    opt = torch.optim.AdamW(student.parameters(), lr=1e-3)

    data = torch.randn(128, 32)
    for epoch in range(3):
        for i in range(0, 128, 32):
            x = data[i:i + 32].to(device)
            v1 = x + 0.1 * torch.randn_like(x)
            v2 = x + 0.1 * torch.randn_like(x)
            with torch.no_grad():
                t1, t2 = teacher(v1), teacher(v2)
            loss = 0.5 * (criterion(student(v1), t2) + criterion(student(v2), t1))
            opt.zero_grad()
            loss.backward()
            opt.step()
            with torch.no_grad():
                for pt, ps in zip(teacher.parameters(), student.parameters()):
                    pt.mul_(0.996).add_(ps.detach(), alpha=0.004)
        print(f"epoch {epoch} loss {loss.item():.4f}")


if __name__ == "__main__":
    main()
