"""Unsupervised domain adaptation with an entropy term on the target domain: a labelled source
loader and an unlabelled target loader are zipped."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    src = TensorDataset(torch.randn(320, 10), torch.randint(0, 3, (320,)))
    tgt = TensorDataset(torch.randn(320, 10) + 0.5)
    src_loader = DataLoader(src, batch_size=32, shuffle=True)
    tgt_loader = DataLoader(tgt, batch_size=32, shuffle=True)
    model = nn.Sequential(nn.Linear(10, 32), nn.ReLU(), nn.Linear(32, 3)).to(device)
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    for epoch in range(2):
        for (xs, ys), (xt,) in zip(src_loader, tgt_loader):
            xs, ys = xs.to(device), ys.to(device)
            sup = F.cross_entropy(model(xs), ys)
            pt = model(xt).softmax(-1)  # expect: DEV002
            ent = -(pt * pt.clamp(min=1e-8).log()).sum(-1).mean()
            loss = sup + 0.1 * ent
            opt.zero_grad()
            loss.backward()
            opt.step()
    print(loss.item())


if __name__ == "__main__":
    main()
