"""Knowledge distillation: a frozen teacher's softened logits guide a smaller student."""
import argparse
import os

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


def teacher_net():
    return nn.Sequential(nn.Linear(32, 128), nn.ReLU(), nn.Linear(128, 128), nn.ReLU(), nn.Linear(128, 10))


def student_net():
    return nn.Sequential(nn.Linear(32, 32), nn.ReLU(), nn.Linear(32, 10))


def distillation_loss(student_logits, teacher_logits, temperature):
    soft_student = F.log_softmax(student_logits / temperature, dim=-1)
    soft_teacher = F.softmax(teacher_logits / temperature, dim=-1)
    return F.kl_div(soft_student, soft_teacher, reduction="batchmean") * temperature ** 2


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--teacher-ckpt", default="teacher.pt")
    parser.add_argument("--temperature", type=float, default=4.0)
    parser.add_argument("--alpha", type=float, default=0.7)
    args = parser.parse_args()
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")

    teacher = teacher_net()
    if os.path.exists(args.teacher_ckpt):
        teacher.load_state_dict(torch.load(args.teacher_ckpt))  # expect: DEV008
    teacher.to(device).eval()
    student = student_net().to(device)
    optimizer = torch.optim.Adam(student.parameters(), lr=1e-3)
    loader = DataLoader(TensorDataset(torch.randn(48, 32), torch.randint(0, 10, (48,))), batch_size=16, shuffle=True)

    for epoch in range(2):
        student.train()
        for x, y in loader:
            x = x.to(device)
            with torch.no_grad():
                teacher_logits = teacher(x)
            student_logits = student(x)
            soft = distillation_loss(student_logits, teacher_logits, args.temperature)
            hard = F.cross_entropy(student_logits, y)  # expect: DEV004
            loss = args.alpha * soft + (1 - args.alpha) * hard
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        print(f"epoch {epoch} soft {soft.item():.4f} hard {hard.item():.4f}")


if __name__ == "__main__":
    main()
