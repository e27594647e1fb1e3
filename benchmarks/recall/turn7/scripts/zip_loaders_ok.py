"""Two zipped loaders done right: both views moved before the model sees them."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    src = DataLoader(TensorDataset(torch.randn(128, 10), torch.randint(0, 3, (128,))), batch_size=32)
    tgt = DataLoader(TensorDataset(torch.randn(128, 10)), batch_size=32)
    model = nn.Sequential(nn.Linear(10, 32), nn.ReLU(), nn.Linear(32, 3)).to(device)
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    for (xs, ys), (xt,) in zip(src, tgt):
        xs, ys, xt = xs.to(device), ys.to(device), xt.to(device)
        pt = model(xt).softmax(-1)
        loss = F.cross_entropy(model(xs), ys) - 0.1 * (pt * pt.clamp(min=1e-8).log()).sum(-1).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(loss.item())


if __name__ == "__main__":
    main()
