"""Behaviour cloning from an offline dataset of (obs, action) pairs, with checkpoint / resume."""
import argparse
import os
import tempfile

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


class Policy(nn.Module):
    def __init__(self, obs_dim=8, n_actions=4, hidden=128):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(obs_dim, hidden), nn.ReLU(),
                                 nn.Linear(hidden, hidden), nn.ReLU(),
                                 nn.Linear(hidden, n_actions))

    def forward(self, obs):
        return self.net(obs)


def offline_dataset(n=4096, obs_dim=8, n_actions=4, seed=0):
    rng = np.random.default_rng(seed)
    obs = rng.normal(size=(n, obs_dim)).astype(np.float32)
    actions = (obs[:, :n_actions].argmax(1)).astype(np.int64)
    return obs, actions


def train_steps(policy, optimizer, data, device, start, steps, batch_size=128):
    obs, actions = data
    for step in range(start, start + steps):
        idx = np.random.randint(0, len(obs), batch_size)
        o = torch.from_numpy(obs[idx]).to(device)
        a = torch.from_numpy(actions[idx]).to(device)
        loss = F.cross_entropy(policy(o), a)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    return start + steps, loss.item()


def save_checkpoint(path, policy, optimizer, step):
    torch.save({"policy": policy.state_dict(), "optimizer": optimizer.state_dict(), "step": step}, path)


def load_checkpoint(path, device, lr):
    policy = Policy()
    optimizer = torch.optim.Adam(policy.parameters(), lr=lr)
    ckpt = torch.load(path)  # expect: DEV008
    policy.load_state_dict(ckpt["policy"])
    optimizer.load_state_dict(ckpt["optimizer"])  # expect: DEV017
    policy.to(device)
    return policy, optimizer, ckpt["step"]


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--no-cuda", action="store_true")
    p.add_argument("--lr", type=float, default=3e-4)
    p.add_argument("--ckpt-dir", default=tempfile.mkdtemp())
    args = p.parse_args()
    use_cuda = torch.cuda.is_available() and not args.no_cuda
    device = torch.device("cuda" if use_cuda else "cpu")

    data = offline_dataset()
    path = os.path.join(args.ckpt_dir, "bc_last.pt")
    if os.path.exists(path):
        policy, optimizer, step = load_checkpoint(path, device, args.lr)
        print(f"resumed from step {step}")
    else:
        policy = Policy().to(device)
        optimizer = torch.optim.Adam(policy.parameters(), lr=args.lr)
        step = 0

    step, loss = train_steps(policy, optimizer, data, device, step, 200)
    save_checkpoint(path, policy, optimizer, step)
    print(f"step {step} loss {loss:.4f}")

    # simulate a preempted job picking up again
    policy, optimizer, step = load_checkpoint(path, device, args.lr)
    step, loss = train_steps(policy, optimizer, data, device, step, 200)
    print(f"after resume: step {step} loss {loss:.4f}")


if __name__ == "__main__":
    main()
