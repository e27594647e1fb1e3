"""Behaviour cloning from recorded (numpy) demonstrations, class-balanced over actions, resumable from a checkpoint."""
import argparse
import os

import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


def load_demos(n=2000, obs_dim=10, n_actions=5, seed=0):
    rng = np.random.default_rng(seed)
    obs = rng.standard_normal((n, obs_dim)).astype(np.float32)
    logits = obs[:, :n_actions] * np.array([3.0, 1.0, 0.5, 0.2, 0.1], dtype=np.float32)
    actions = logits.argmax(1).astype(np.int64)
    return obs, actions


class Policy(nn.Module):
    def __init__(self, obs_dim, n_actions, hidden=128):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(obs_dim, hidden), nn.ReLU(), nn.Linear(hidden, hidden), nn.ReLU(), nn.Linear(hidden, n_actions))

    def forward(self, obs):
        return self.net(obs)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=2)
    ap.add_argument("--ckpt", default="/tmp/r_bc.pt")
    ap.add_argument("--resume", action="store_true")
    args = ap.parse_args()
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")

    obs, actions = load_demos()
    n_actions = 5
    counts = np.bincount(actions, minlength=n_actions)
    weights = torch.tensor(counts.sum() / (n_actions * np.maximum(counts, 1)), dtype=torch.float32)
    criterion = nn.CrossEntropyLoss(weight=weights)  # expect: DEV012
    loader = DataLoader(TensorDataset(torch.from_numpy(obs), torch.from_numpy(actions)), batch_size=64, shuffle=True)

    policy = Policy(obs.shape[1], n_actions)
    optimizer = torch.optim.Adam(policy.parameters(), lr=1e-3)
    start_epoch = 0
    if args.resume and os.path.exists(args.ckpt):
        ckpt = torch.load(args.ckpt, map_location="cpu")
        policy.load_state_dict(ckpt["policy"])
        optimizer.load_state_dict(ckpt["optimizer"])  # expect: DEV017
        start_epoch = ckpt["epoch"] + 1
    policy.to(device)

    for epoch in range(start_epoch, start_epoch + args.epochs):
        for ob, act in loader:
            ob, act = ob.to(device), act.to(device)
            loss = criterion(policy(ob), act)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        print(f"epoch {epoch} loss {loss.item():.4f}")
        torch.save({"policy": policy.state_dict(), "optimizer": optimizer.state_dict(), "epoch": epoch}, args.ckpt)


if __name__ == "__main__":
    main()
