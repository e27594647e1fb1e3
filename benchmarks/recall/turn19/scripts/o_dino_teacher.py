"""Self-distillation (DINO-style) with a momentum teacher, centering and sharpening.

Single GPU version of our pre-training script, with a tiny ConvNet backbone.
"""
import argparse
import copy
import math

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


class DINOHead(nn.Module):
    def __init__(self, in_dim, out_dim=128, hidden=128, bottleneck=32):
        super().__init__()
        self.mlp = nn.Sequential(nn.Linear(in_dim, hidden), nn.GELU(), nn.Linear(hidden, bottleneck))
        self.last_layer = nn.utils.parametrizations.weight_norm(nn.Linear(bottleneck, out_dim, bias=False))

    def forward(self, x):
        x = F.normalize(self.mlp(x), dim=-1)
        return self.last_layer(x)


class Backbone(nn.Module):
    def __init__(self, width=32):
        super().__init__()
        self.net = nn.Sequential(
            nn.Conv2d(3, width, 3, 2, 1), nn.GELU(),
            nn.Conv2d(width, 2 * width, 3, 2, 1), nn.GELU(),
            nn.AdaptiveAvgPool2d(1), nn.Flatten(),
        )
        self.embed_dim = 2 * width

    def forward(self, x):
        return self.net(x)


class DINOLoss(nn.Module):
    def __init__(self, out_dim, warmup_teacher_temp, teacher_temp, warmup_epochs, nepochs,
                 student_temp=0.1, center_momentum=0.9):
        super().__init__()
        self.student_temp = student_temp
        self.center_momentum = center_momentum
        self.center = torch.zeros(1, out_dim)  # expect: DEV010
        self.teacher_temp_schedule = np.concatenate((
            np.linspace(warmup_teacher_temp, teacher_temp, warmup_epochs),
            np.ones(nepochs - warmup_epochs) * teacher_temp,
        ))

    def forward(self, student_output, teacher_output, epoch):
        temp = self.teacher_temp_schedule[epoch]
        student_out = (student_output / self.student_temp).chunk(2)
        teacher_out = F.softmax((teacher_output - self.center) / temp, dim=-1).detach().chunk(2)
        total, n = 0.0, 0
        for iq, q in enumerate(teacher_out):
            for v, s in enumerate(student_out):
                if v == iq:
                    continue
                total = total + torch.sum(-q * F.log_softmax(s, dim=-1), dim=-1).mean()
                n += 1
        self.update_center(teacher_output)
        return total / n

    @torch.no_grad()
    def update_center(self, teacher_output):
        batch_center = teacher_output.mean(dim=0, keepdim=True)
        self.center = self.center * self.center_momentum + batch_center * (1 - self.center_momentum)


def build_models(args):
    backbone = Backbone()
    student = nn.Sequential(backbone, DINOHead(backbone.embed_dim, args.out_dim))
    teacher = copy.deepcopy(student)  # expect: DEV016
    for p in teacher.parameters():
        p.requires_grad = False
    return student, teacher


def two_views(x):
    v1 = x + 0.05 * torch.randn_like(x)
    v2 = torch.flip(x, dims=[3]) * (0.8 + 0.4 * torch.rand(1, device=x.device))
    return torch.cat([v1, v2])


def main():
    parser = argparse.ArgumentParser("DINO")
    parser.add_argument("--epochs", type=int, default=3)
    parser.add_argument("--out_dim", type=int, default=128)
    parser.add_argument("--momentum_teacher", type=float, default=0.996)
    parser.add_argument("--warmup_teacher_temp", type=float, default=0.04)
    parser.add_argument("--teacher_temp", type=float, default=0.07)
    parser.add_argument("--warmup_teacher_temp_epochs", type=int, default=1)
    args = parser.parse_args()

    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    student, teacher = build_models(args)
    student = student.to(device)
    dino_loss = DINOLoss(args.out_dim, args.warmup_teacher_temp, args.teacher_temp,
                         args.warmup_teacher_temp_epochs, args.epochs).to(device)
    optimizer = torch.optim.AdamW(student.parameters(), lr=5e-4)

    data = torch.rand(64, 3, 32, 32)
    iters_per_epoch = 4
    total_iters = args.epochs * iters_per_epoch
    it = 0
    for epoch in range(args.epochs):
        for i in range(iters_per_epoch):
            x = data[i * 16:(i + 1) * 16].to(device)
            views = two_views(x)
            teacher_output = teacher(views)
            student_output = student(views)
            loss = dino_loss(student_output, teacher_output, epoch)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            # EMA update of the teacher, cosine momentum schedule
            m = 1 - (1 - args.momentum_teacher) * (math.cos(math.pi * it / total_iters) + 1) / 2
            with torch.no_grad():
                for ps, pt in zip(student.parameters(), teacher.parameters()):
                    pt.data.mul_(m).add_((1 - m) * ps.detach().data)
            it += 1
        print(f"epoch {epoch} loss {loss.item():.4f}")


if __name__ == "__main__":
    main()
