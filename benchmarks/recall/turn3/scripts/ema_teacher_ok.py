"""Mean-teacher / EMA done right: the copy taken after the move (deepcopy keeps the device), and a target
network built fresh and moved, then synced with load_state_dict."""
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F


def make_net():
    return nn.Sequential(nn.Linear(16, 64), nn.ReLU(), nn.Linear(64, 4))


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    student = make_net().to(device)
    teacher = copy.deepcopy(student).requires_grad_(False)
    target = make_net().to(device)
    target.load_state_dict(student.state_dict())
    opt = torch.optim.Adam(student.parameters(), lr=1e-3)
    for step in range(100):
        x = torch.randn(32, 16, device=device)
        with torch.no_grad():
            soft = teacher(x + 0.1 * torch.randn_like(x)).softmax(-1)
            anchor = target(x).argmax(-1)
        loss = F.kl_div(student(x).log_softmax(-1), soft, reduction="batchmean") + F.cross_entropy(student(x), anchor)
        opt.zero_grad()
        loss.backward()
        opt.step()
        with torch.no_grad():
            for t, s in zip(teacher.parameters(), student.parameters()):
                t.lerp_(s, 0.01)
        if step % 25 == 0:
            target.load_state_dict(student.state_dict())
    print(loss.item())


if __name__ == "__main__":
    main()
