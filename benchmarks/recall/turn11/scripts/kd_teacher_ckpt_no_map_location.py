"""Response-based knowledge distillation for keyword spotting on MFCC frames: a teacher CNN,
restored from the checkpoint of its GPU training run, softens the targets for a small student.

Threads: https://github.com/IntelLabs/distiller/issues/102 (loading the --kd-resume teacher
checkpoint fails), https://github.com/Sujit-O/pykg2vec/issues/223 (trained on GPU, inference on
a CPU machine: "Attempting to deserialize object on a CUDA device") and
https://github.com/HoyTta0/KnowledgeDistillation/issues/10 (labels never moved in distill.py:
"Expected all tensors to be on the same device ... argument target").
"""
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


class KWSNet(nn.Module):
    def __init__(self, width, classes=12):
        super().__init__()
        self.body = nn.Sequential(
            nn.Conv2d(1, width, 3, padding=1), nn.BatchNorm2d(width), nn.ReLU(), nn.MaxPool2d(2),
            nn.Conv2d(width, width, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(1))
        self.fc = nn.Linear(width, classes)

    def forward(self, mfcc):
        return self.fc(self.body(mfcc.unsqueeze(1)).flatten(1))


def kd_loss(s_logits, t_logits, T):
    return F.kl_div(F.log_softmax(s_logits / T, -1), F.softmax(t_logits / T, -1),
                    reduction="batchmean") * T * T


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--teacher", default="checkpoints/kws_teacher_best.pth")
    parser.add_argument("--alpha", type=float, default=0.7)
    parser.add_argument("--T", type=float, default=4.0)
    args = parser.parse_args()
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")

    teacher = KWSNet(64)
    teacher.load_state_dict(torch.load(args.teacher))  # expect: DEV008
    teacher.to(device).eval()
    student = KWSNet(16).to(device)
    opt = torch.optim.Adam(student.parameters(), lr=1e-3)
    data = TensorDataset(torch.randn(384, 40, 32), torch.randint(0, 12, (384,)))
    for epoch in range(2):
        for mfcc, labels in DataLoader(data, batch_size=64, shuffle=True):
            mfcc = mfcc.to(device)
            with torch.no_grad():
                t_logits = teacher(mfcc)
            s_logits = student(mfcc)
            ce = F.cross_entropy(s_logits, labels)  # expect: DEV004
            loss = args.alpha * kd_loss(s_logits, t_logits, args.T) + (1 - args.alpha) * ce
            opt.zero_grad()
            loss.backward()
            opt.step()
        print(f"epoch {epoch}: loss {loss.item():.3f}")


if __name__ == "__main__":
    main()
