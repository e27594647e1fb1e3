"""Feature distillation for a keyword-spotting CNN: the teacher comes from a
checkpoint (mapped onto whatever device this machine has), the student is
trained to match the teacher's penultimate features, and an EMA copy of the
student (taken after the student moved) is kept for evaluation.
"""
import argparse
import copy
import os
import tempfile

import torch
import torch.nn as nn
import torch.nn.functional as F


class KWS(nn.Module):
    def __init__(self, width, classes=6):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv1d(16, width, 5, padding=2), nn.ReLU(), nn.Conv1d(width, width, 5, padding=2), nn.ReLU(),
            nn.AdaptiveAvgPool1d(1), nn.Flatten(),
        )
        self.classifier = nn.Linear(width, classes)

    def forward(self, x):
        f = self.features(x)
        return f, self.classifier(f)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--teacher-ckpt", default=None)
    parser.add_argument("--steps", type=int, default=30)
    args = parser.parse_args()
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")

    if args.teacher_ckpt is None:
        args.teacher_ckpt = os.path.join(tempfile.gettempdir(), "p_kws_teacher.pt")
        torch.save(KWS(64).state_dict(), args.teacher_ckpt)

    teacher = KWS(64)
    teacher.load_state_dict(torch.load(args.teacher_ckpt, map_location=device))
    teacher.to(device).eval().requires_grad_(False)

    student = KWS(16).to(device)
    adapter = nn.Linear(16, 64).to(device)
    ema = copy.deepcopy(student).requires_grad_(False)
    optimizer = torch.optim.Adam(list(student.parameters()) + list(adapter.parameters()), lr=1e-3)

    for step in range(args.steps):
        x = torch.randn(32, 16, 40, device=device)
        y = torch.randint(0, 6, (32,), device=device)
        with torch.no_grad():
            t_feat, _ = teacher(x)
        s_feat, logits = student(x)
        loss = F.mse_loss(adapter(s_feat), t_feat) + F.cross_entropy(logits, y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        with torch.no_grad():
            for e, p in zip(ema.parameters(), student.parameters()):
                e.lerp_(p, 0.01)
    with torch.no_grad():
        _, ema_logits = ema(torch.randn(8, 16, 40, device=device))
    print(f"final loss {loss.item():.3f}, ema logits {tuple(ema_logits.shape)}")


if __name__ == "__main__":
    main()
