"""Knowledge distillation: a frozen teacher loaded from its checkpoint supervises a small
student (soft targets at temperature T plus hard labels); the student can resume."""
import argparse
import os
import tempfile

import torch
import torch.nn as nn
import torch.nn.functional as F

TMP = tempfile.gettempdir()


def mlp(d_in, hidden, n_out, depth):
    layers, d = [], d_in
    for _ in range(depth):
        layers += [nn.Linear(d, hidden), nn.ReLU()]
        d = hidden
    layers.append(nn.Linear(d, n_out))
    return nn.Sequential(*layers)


def kd_loss(student_logits, teacher_logits, labels, T=4.0, alpha=0.7):
    soft = F.kl_div(F.log_softmax(student_logits / T, dim=-1), F.softmax(teacher_logits / T, dim=-1),
                    reduction="batchmean") * T * T
    hard = F.cross_entropy(student_logits, labels)
    return alpha * soft + (1 - alpha) * hard


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--teacher-ckpt", default=os.path.join(TMP, "x_kd_teacher.pt"))
    ap.add_argument("--student-ckpt", default=os.path.join(TMP, "x_kd_student.pt"))
    ap.add_argument("--resume", action="store_true")
    ap.add_argument("--steps", type=int, default=30)
    args = ap.parse_args()
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")

    if not os.path.exists(args.teacher_ckpt):
        torch.save(mlp(20, 256, 5, 3).state_dict(), args.teacher_ckpt)

    teacher = mlp(20, 256, 5, 3)
    teacher.load_state_dict(torch.load(args.teacher_ckpt))  # expect: DEV008
    teacher.to(device).eval()
    for p in teacher.parameters():
        p.requires_grad_(False)

    student = mlp(20, 32, 5, 1)
    optimizer = torch.optim.Adam(student.parameters(), lr=1e-3)
    start = 0
    if args.resume and os.path.exists(args.student_ckpt):
        state = torch.load(args.student_ckpt, map_location="cpu")
        student.load_state_dict(state["model"])
        optimizer.load_state_dict(state["optim"])  # expect: DEV017
        start = state["step"]
    student.to(device)

    for step in range(start, start + args.steps):
        x = torch.randn(64, 20, device=device)
        y = torch.randint(0, 5, (64,), device=device)
        with torch.no_grad():
            t_logits = teacher(x)
        loss = kd_loss(student(x), t_logits, y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    print(f"step {step}: kd loss {loss.item():.4f}")
    torch.save({"model": student.state_dict(), "optim": optimizer.state_dict(), "step": step + 1},
               args.student_ckpt)


if __name__ == "__main__":
    main()
