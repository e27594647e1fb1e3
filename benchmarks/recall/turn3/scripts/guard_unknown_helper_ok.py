"""A training script whose device decisions go through helpers of the project's own package, which this file
does not show: whatever they return, the script never names CUDA without one of them checking."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from mylab.hw import get_device, gpu_available
from mylab.data import make_loader


def main():
    device = get_device()
    model = nn.Sequential(nn.Linear(20, 64), nn.ReLU(), nn.Linear(64, 2))
    if gpu_available():
        model = model.cuda()
        torch.backends.cudnn.benchmark = True
    model.to(device)
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    for x, y in make_loader(batch_size=64):
        x, y = x.to(device), y.to(device)
        loss = F.cross_entropy(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
    if gpu_available():
        print(torch.cuda.max_memory_allocated() / 2**20, "MiB")


if __name__ == "__main__":
    main()
