"""Bayes-by-Backprop regression with mean-field Gaussian layers.

The ELBO is the Gaussian likelihood minus KL(q(w) || N(0, prior_sigma^2));
predictive uncertainty comes from Monte-Carlo samples of the weights.
"""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


class BayesLinear(nn.Module):
    def __init__(self, n_in, n_out, prior_sigma=1.0):
        super().__init__()
        self.w_mu = nn.Parameter(torch.empty(n_out, n_in).uniform_(-0.2, 0.2))
        self.w_rho = nn.Parameter(torch.full((n_out, n_in), -4.0))
        self.b_mu = nn.Parameter(torch.zeros(n_out))
        self.b_rho = nn.Parameter(torch.full((n_out,), -4.0))
        self.prior_sigma = torch.tensor(prior_sigma)
        self.kl = 0.0

    def _kl(self, mu, sigma):
        ps = self.prior_sigma
        return (torch.log(ps / sigma) + (sigma ** 2 + mu ** 2) / (2 * ps ** 2) - 0.5).sum()

    def forward(self, x):
        w_sigma = F.softplus(self.w_rho)
        b_sigma = F.softplus(self.b_rho)
        eps_w = torch.randn(self.w_mu.shape)  # expect: DEV006
        eps_b = torch.randn_like(self.b_mu)
        w = self.w_mu + w_sigma * eps_w
        b = self.b_mu + b_sigma * eps_b
        self.kl = self._kl(self.w_mu, w_sigma) + self._kl(self.b_mu, b_sigma)
        return F.linear(x, w, b)


class BNN(nn.Module):
    def __init__(self, hidden=32):
        super().__init__()
        self.l1 = BayesLinear(1, hidden)
        self.l2 = BayesLinear(hidden, 1)

    def forward(self, x):
        return self.l2(torch.relu(self.l1(x)))

    def kl(self):
        return self.l1.kl + self.l2.kl


@torch.no_grad()
def mc_predict(model, x, n_samples=20):
    x = x.to("cuda")  # expect: DEV001
    preds = torch.stack([model(x) for _ in range(n_samples)])
    return preds.mean(0).cpu(), preds.std(0).cpu()


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    torch.manual_seed(0)
    x = torch.linspace(-3, 3, 200).unsqueeze(1)
    y = torch.sin(x) + 0.1 * torch.randn_like(x)
    loader = DataLoader(TensorDataset(x, y), batch_size=25, shuffle=True)
    model = BNN().to(device)
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    noise_sigma = 0.1
    n_batches = len(loader)
    for epoch in range(5):
        for xb, yb in loader:
            xb, yb = xb.to(device), yb.to(device)
            pred = model(xb)
            nll = 0.5 * ((pred - yb) ** 2).sum() / noise_sigma ** 2 + len(xb) * math.log(noise_sigma)
            loss = nll + model.kl() / n_batches
            opt.zero_grad()
            loss.backward()
            opt.step()
        print(f"epoch {epoch}: -elbo {loss.item():.1f}")

    grid = torch.linspace(-5, 5, 11).unsqueeze(1)
    mean, std = mc_predict(model, grid)
    for g, m, s in zip(grid.squeeze(1).tolist(), mean.squeeze(1).tolist(), std.squeeze(1).tolist()):
        print(f"x={g:+.1f}  mean={m:+.3f}  std={s:.3f}")


if __name__ == "__main__":
    main()
