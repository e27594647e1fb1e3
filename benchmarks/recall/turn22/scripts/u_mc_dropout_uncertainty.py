"""MC-dropout uncertainty for a regression model, with input-noise robustness check.

Dropout layers are switched back to train mode at inference, T stochastic passes are
taken per batch, and the predictive std is plotted against the absolute error.
"""
import argparse

import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import torch  # noqa: E402
import torch.nn as nn  # noqa: E402
from torch.utils.data import DataLoader, TensorDataset  # noqa: E402


class Regressor(nn.Module):
    def __init__(self, n_in=8, hidden=64, p=0.2):
        super().__init__()
        self.net = nn.Sequential(
            nn.Linear(n_in, hidden), nn.ReLU(), nn.Dropout(p),
            nn.Linear(hidden, hidden), nn.ReLU(), nn.Dropout(p),
            nn.Linear(hidden, 1),
        )

    def forward(self, x):
        return self.net(x).squeeze(-1)


def enable_mc_dropout(model):
    model.eval()
    for m in model.modules():
        if isinstance(m, nn.Dropout):
            m.train()


@torch.no_grad()
def mc_predict(model, x, passes, input_noise):
    outs = []
    for _ in range(passes):
        x_in = x + input_noise * torch.randn(x.shape)  # expect: DEV006
        outs.append(model(x_in))
    stacked = torch.stack(outs)
    return stacked.mean(0), stacked.std(0)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--passes", type=int, default=20)
    ap.add_argument("--input-noise", type=float, default=0.01)
    ap.add_argument("--out", default="/tmp/u_mc_dropout.png")
    args = ap.parse_args()

    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    g = torch.Generator().manual_seed(5)
    x = torch.randn(200, 8, generator=g)
    y = x[:, :3].sum(1) + 0.1 * torch.randn(200, generator=g)
    loader = DataLoader(TensorDataset(x, y), batch_size=50)

    model = Regressor().to(device)
    enable_mc_dropout(model)

    stds, errs = [], []
    for xb, yb in loader:
        xb, yb = xb.to(device), yb.to(device)
        mean, std = mc_predict(model, xb, args.passes, args.input_noise)
        stds.append(std)
        errs.append((mean - yb).abs().cpu())

    std_all = torch.cat(stds)
    err_all = torch.cat(errs)
    fig, ax = plt.subplots(figsize=(4, 3))
    ax.scatter(std_all.numpy(), err_all.numpy(), s=6)  # expect: DEV011
    ax.set_xlabel("predictive std")
    ax.set_ylabel("|error|")
    fig.tight_layout()
    fig.savefig(args.out)
    print(f"mean std {std_all.mean().item():.4f}, saved {args.out}")


if __name__ == "__main__":
    main()
