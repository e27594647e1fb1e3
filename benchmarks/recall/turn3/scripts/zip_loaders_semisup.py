"""FixMatch-style semi-supervised training: labeled and unlabeled loaders zipped in one loop."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


def weak(x):
    return x + 0.05 * torch.randn_like(x)


def strong(x):
    return x * (torch.rand_like(x) > 0.2) + 0.2 * torch.randn_like(x)


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    labeled = DataLoader(TensorDataset(torch.randn(256, 20), torch.randint(0, 4, (256,))), batch_size=32, shuffle=True)
    unlabeled = DataLoader(TensorDataset(torch.randn(4096, 20)), batch_size=224, shuffle=True)
    model = nn.Sequential(nn.Linear(20, 128), nn.ReLU(), nn.Linear(128, 4)).to(device)
    opt = torch.optim.SGD(model.parameters(), lr=0.03, momentum=0.9, nesterov=True)
    for epoch in range(10):
        for (x_l, y_l), (x_u,) in zip(labeled, unlabeled):
            x_l, y_l = x_l.to(device), y_l.to(device)
            sup = F.cross_entropy(model(weak(x_l)), y_l)
            with torch.no_grad():
                pseudo = model(weak(x_u)).softmax(-1)  # expect: DEV002
            conf, target = pseudo.max(-1)
            unsup = (F.cross_entropy(model(strong(x_u)), target, reduction="none") * (conf > 0.95)).mean()  # also: DEV002
            loss = sup + unsup
            opt.zero_grad()
            loss.backward()
            opt.step()
        print(epoch, loss.item())


if __name__ == "__main__":
    main()
