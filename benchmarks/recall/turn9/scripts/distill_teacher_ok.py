"""Look-alike of mean_teacher_copied_before_move.py: a knowledge-distillation loop whose teacher is
loaded with map_location and moved, and whose EMA copy is taken after the student moved.

Thread: https://github.com/nlp-with-transformers/notebooks/pull/64 (ensure tensors are on the same
device when training the distillation model).
"""
import copy
import os

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


def kd_loss(s_logits, t_logits, y, T=2.0, alpha=0.5):
    soft = F.kl_div(F.log_softmax(s_logits / T, -1), F.softmax(t_logits / T, -1), reduction="batchmean")
    return alpha * soft * T * T + (1 - alpha) * F.cross_entropy(s_logits, y)


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    teacher = nn.Sequential(nn.Linear(20, 256), nn.ReLU(), nn.Linear(256, 5))
    if os.path.exists("teacher.pt"):
        teacher.load_state_dict(torch.load("teacher.pt", map_location=device))
    teacher = teacher.to(device).eval()
    student = nn.Sequential(nn.Linear(20, 32), nn.ReLU(), nn.Linear(32, 5)).to(device)
    ema = copy.deepcopy(student)
    opt = torch.optim.Adam(student.parameters(), lr=1e-3)
    loader = DataLoader(TensorDataset(torch.randn(64, 20), torch.randint(0, 5, (64,))), batch_size=16)
    for x, y in loader:
        x, y = x.to(device), y.to(device)
        with torch.no_grad():
            t_logits = teacher(x)
        loss = kd_loss(student(x), t_logits, y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        with torch.no_grad():
            for e, s in zip(ema.parameters(), student.parameters()):
                e.lerp_(s, 0.01)
    print(loss.item())


if __name__ == "__main__":
    main()
