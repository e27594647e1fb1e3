"""Optuna search over VAE width, latent size, beta and learning rate, with median pruning.

Two trials run side by side; when the machine has a second GPU the odd-numbered
trials go there.
"""
import argparse

import optuna
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


def pick_device(trial_number):
    if torch.cuda.device_count() > 1 and trial_number % 2 == 1:
        return torch.device("cuda:1")
    if torch.cuda.is_available():
        return torch.device("cuda")
    return torch.device("cpu")


class VAE(nn.Module):
    def __init__(self, in_dim, hidden, latent):
        super().__init__()
        self.enc = nn.Sequential(nn.Linear(in_dim, hidden), nn.ReLU())
        self.mu = nn.Linear(hidden, latent)
        self.logvar = nn.Linear(hidden, latent)
        self.dec = nn.Sequential(nn.Linear(latent, hidden), nn.ReLU(), nn.Linear(hidden, in_dim))

    def forward(self, x):
        h = self.enc(x)
        mu, logvar = self.mu(h), self.logvar(h)
        z = mu + torch.randn_like(mu) * (0.5 * logvar).exp()
        return self.dec(z), mu, logvar


def make_data(n=600, dim=24, seed=0):
    g = torch.Generator().manual_seed(seed)
    basis = torch.randn(3, dim, generator=g)
    x = torch.randn(n, 3, generator=g) @ basis + 0.1 * torch.randn(n, dim, generator=g)
    return TensorDataset(x[:480]), TensorDataset(x[480:])


TRAIN, VALID = make_data()


def elbo(recon, x, mu, logvar, beta):
    rec = F.mse_loss(recon, x, reduction="sum") / x.size(0)
    kl = -0.5 * torch.sum(1 + logvar - mu.pow(2) - logvar.exp()) / x.size(0)
    return rec + beta * kl


def objective(trial, epochs):
    device = pick_device(trial.number)
    hidden = trial.suggest_int("hidden", 16, 128, log=True)
    latent = trial.suggest_int("latent", 2, 8)
    beta = trial.suggest_float("beta", 0.1, 4.0, log=True)
    lr = trial.suggest_float("lr", 1e-4, 1e-2, log=True)

    model = VAE(24, hidden, latent).to(device)
    optimizer = torch.optim.Adam(model.parameters(), lr=lr)
    train_loader = DataLoader(TRAIN, batch_size=64, shuffle=True)
    valid_loader = DataLoader(VALID, batch_size=120)

    for epoch in range(epochs):
        model.train()
        for (x,) in train_loader:
            x = x.to(device)
            recon, mu, logvar = model(x)
            loss = elbo(recon, x, mu, logvar, beta)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()

        model.eval()
        total, n = 0.0, 0
        with torch.no_grad():
            for (x,) in valid_loader:
                x = x.to(device)
                recon, mu, logvar = model(x)
                total += elbo(recon, x, mu, logvar, 1.0).item() * x.size(0)
                n += x.size(0)
        val = total / n
        trial.report(val, epoch)
        if trial.should_prune():
            raise optuna.TrialPruned()
    return val


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--trials", type=int, default=8)
    ap.add_argument("--epochs", type=int, default=4)
    args = ap.parse_args()
    optuna.logging.set_verbosity(optuna.logging.WARNING)
    study = optuna.create_study(direction="minimize", pruner=optuna.pruners.MedianPruner(n_warmup_steps=1))
    study.optimize(lambda t: objective(t, args.epochs), n_trials=args.trials, n_jobs=2)
    print("best val -ELBO:", round(study.best_value, 3), study.best_params)


if __name__ == "__main__":
    main()
