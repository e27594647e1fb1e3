"""The newer kinds done right: a head replaced before the move, an EMA copied after it, the
optimizer built and restored after placement, a metric moved, a mask cast with a dtype, the
second GPU used only when there is one."""
import copy
import os

import torch
import torch.nn as nn
import torch.nn.functional as F
from torchmetrics.classification import MulticlassAccuracy


def main():
    if torch.cuda.device_count() > 1:
        device = torch.device("cuda:1")
    else:
        device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = nn.Sequential(nn.Linear(12, 32), nn.ReLU(), nn.Linear(32, 10))
    model[2] = nn.Linear(32, 4)
    model.to(device)
    ema = copy.deepcopy(model)
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    if os.path.exists("ok_resume.pt"):
        state = torch.load("ok_resume.pt", map_location=device)
        model.load_state_dict(state["model"])
        opt.load_state_dict(state["opt"])
    acc = MulticlassAccuracy(num_classes=4).to(device)
    for _ in range(10):
        ids = torch.randint(0, 3, (16, 12), device=device)
        mask = (ids != 0).type(torch.float32)
        y = torch.randint(0, 4, (16,), device=device)
        out = model(mask * ids)
        loss = F.cross_entropy(out, y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        with torch.no_grad():
            for e, p in zip(ema.parameters(), model.parameters()):
                e.lerp_(p, 0.05)
        acc.update(ema(mask * ids).argmax(1), y)
    print(acc.compute().item())
    torch.save({"model": model.state_dict(), "opt": opt.state_dict()}, "ok_resume.pt")


if __name__ == "__main__":
    main()
