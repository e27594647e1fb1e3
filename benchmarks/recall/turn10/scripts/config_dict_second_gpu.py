"""Teacher-student anomaly detection on image patches (uninformed-students style): a frozen random
teacher, a student regressing its features, and the regression error as the anomaly score. All
settings live in one CFG dict at the top of the script.

Thread: https://github.com/LuyaooChen/uninformed-students-pytorch/issues/3 (RuntimeError: CUDA
error: invalid device ordinal; the author had two GPUs and used 'cuda:1').
"""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

CFG = {
    "device": "cuda:1" if torch.cuda.is_available() else "cpu",  # expect: DEV018
    "patch_size": 17,
    "feat_dim": 64,
    "lr": 1e-4,
    "epochs": 3,
    "batch_size": 32,
}


def patch_net(feat_dim):
    return nn.Sequential(
        nn.Conv2d(3, 32, 5), nn.LeakyReLU(0.1),
        nn.Conv2d(32, 64, 5), nn.LeakyReLU(0.1),
        nn.Conv2d(64, feat_dim, 9),
    )


def main():
    device = torch.device(CFG["device"])
    teacher = patch_net(CFG["feat_dim"]).to(device).eval()
    for p in teacher.parameters():
        p.requires_grad_(False)
    student = patch_net(CFG["feat_dim"]).to(device)
    opt = torch.optim.Adam(student.parameters(), lr=CFG["lr"], weight_decay=1e-5)
    patches = torch.rand(512, 3, CFG["patch_size"], CFG["patch_size"])
    loader = DataLoader(TensorDataset(patches), batch_size=CFG["batch_size"], shuffle=True)
    for epoch in range(CFG["epochs"]):
        for (x,) in loader:
            x = x.to(device)
            with torch.no_grad():
                target = teacher(x)
            loss = F.mse_loss(student(x), target)
            opt.zero_grad()
            loss.backward()
            opt.step()
        print(epoch, loss.item())
    with torch.no_grad():
        probe = torch.rand(8, 3, CFG["patch_size"], CFG["patch_size"], device=device)
        scores = (student(probe) - teacher(probe)).pow(2).mean((1, 2, 3))
    print(scores.cpu())


if __name__ == "__main__":
    main()
