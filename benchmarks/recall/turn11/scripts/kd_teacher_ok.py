"""Look-alike of kd_teacher_ckpt_no_map_location.py and kd_student_proj_added_after_move.py: the
teacher checkpoint is mapped to the chosen device, the hint regressor is attached before the
student moves, and the labels move with the inputs.

Thread: https://github.com/HoyTta0/KnowledgeDistillation/issues/10 (fix: labels =
labels.to(config.device) in teacher_train and teacher_evaluate).
"""
import argparse
import os

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


class KWSNet(nn.Module):
    def __init__(self, width, classes=12):
        super().__init__()
        self.body = nn.Sequential(
            nn.Conv2d(1, width, 3, padding=1), nn.BatchNorm2d(width), nn.ReLU(), nn.MaxPool2d(2),
            nn.Conv2d(width, width, 3, padding=1), nn.ReLU())
        self.pool = nn.AdaptiveAvgPool2d(1)
        self.fc = nn.Linear(width, classes)

    def forward(self, mfcc):
        feat = self.body(mfcc.unsqueeze(1))
        return self.fc(self.pool(feat).flatten(1)), feat


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--teacher", default="checkpoints/kws_teacher_best.pth")
    parser.add_argument("--T", type=float, default=4.0)
    args = parser.parse_args()
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")

    teacher = KWSNet(64)
    if os.path.exists(args.teacher):
        teacher.load_state_dict(torch.load(args.teacher, map_location=device))
    teacher.to(device).eval()
    student = KWSNet(16)
    student.regressor = nn.Conv2d(16, 64, kernel_size=1)
    student.to(device)
    opt = torch.optim.Adam(student.parameters(), lr=1e-3)
    data = TensorDataset(torch.randn(384, 40, 32), torch.randint(0, 12, (384,)))
    for epoch in range(2):
        for mfcc, labels in DataLoader(data, batch_size=64, shuffle=True):
            mfcc, labels = mfcc.to(device), labels.to(device)
            with torch.no_grad():
                t_logits, t_feat = teacher(mfcc)
            s_logits, s_feat = student(mfcc)
            kd = F.kl_div(F.log_softmax(s_logits / args.T, -1), F.softmax(t_logits / args.T, -1),
                          reduction="batchmean") * args.T ** 2
            hint = F.mse_loss(student.regressor(s_feat), t_feat)
            loss = 0.5 * kd + 0.5 * F.cross_entropy(s_logits, labels) + 0.1 * hint
            opt.zero_grad()
            loss.backward()
            opt.step()
        print(f"epoch {epoch}: {loss.item():.3f}")


if __name__ == "__main__":
    main()
