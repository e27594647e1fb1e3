"""Semi-supervised consistency training: a labelled loader and an unlabelled loader are zipped;
the unlabelled images get two augmentations.

Thread: https://github.com/hangyu94/Ada-CM/issues/10 (Expected all tensors to be on the same device,
cuda:0 and cpu, in a labelled/unlabelled training loop).
"""
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


def jitter(x):
    return x + 0.1 * torch.randn_like(x)


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    net = nn.Sequential(nn.Linear(10, 32), nn.ReLU(), nn.Linear(32, 3)).to(device)
    opt = torch.optim.Adam(net.parameters(), lr=1e-3)
    lab = DataLoader(TensorDataset(torch.randn(128, 10), torch.randint(0, 3, (128,))), batch_size=16, shuffle=True)
    unl = DataLoader(TensorDataset(torch.randn(512, 10)), batch_size=64, shuffle=True)
    for (xl, yl), (xu,) in zip(lab, unl):
        xl, yl = xl.to(device), yl.to(device)
        sup = nn.functional.cross_entropy(net(xl), yl)
        p_weak = net(jitter(xu)).softmax(-1).detach()  # expect: DEV002
        cons = nn.functional.kl_div(net(jitter(xu)).log_softmax(-1), p_weak, reduction="batchmean")  # also: DEV002
        opt.zero_grad()
        (sup + cons).backward()
        opt.step()


if __name__ == "__main__":
    main()
