"""Resumable DQN trainer: checkpoints hold online/target nets, optimizer and epsilon."""
import argparse
import copy
import os
import tempfile

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


def make_qnet(obs_dim=4, n_actions=2):
    return nn.Sequential(nn.Linear(obs_dim, 64), nn.ReLU(), nn.Linear(64, n_actions))


class Trainer:
    def __init__(self, device, lr=1e-3, ckpt_path=None):
        self.device = device
        self.q = make_qnet().to(device)
        self.q_target = copy.deepcopy(self.q)
        self.opt = torch.optim.Adam(self.q.parameters(), lr=lr)
        self.step, self.eps = 0, 1.0
        if ckpt_path and os.path.exists(ckpt_path):
            self.load(ckpt_path)

    def load(self, path):
        ckpt = torch.load(path, map_location=self.device)
        self.q.load_state_dict(ckpt["q"])
        self.q_target.load_state_dict(ckpt["q_target"])
        self.opt.load_state_dict(ckpt["opt"])
        self.step, self.eps = ckpt["step"], ckpt["eps"]

    def save(self, path):
        torch.save({"q": self.q.state_dict(), "q_target": self.q_target.state_dict(),
                    "opt": self.opt.state_dict(), "step": self.step, "eps": self.eps}, path)

    def train_batch(self, obs, act, rew, next_obs, done, gamma=0.99):
        obs = torch.as_tensor(obs, device=self.device)
        next_obs = torch.as_tensor(next_obs, device=self.device)
        act = torch.as_tensor(act, device=self.device)
        rew = torch.as_tensor(rew, device=self.device)
        done = torch.as_tensor(done, device=self.device)
        q = self.q(obs).gather(1, act[:, None]).squeeze(1)
        with torch.no_grad():
            target = rew + gamma * (1 - done) * self.q_target(next_obs).max(1).values
        loss = F.mse_loss(q, target)
        self.opt.zero_grad()
        loss.backward()
        self.opt.step()
        self.step += 1
        self.eps = max(0.05, self.eps * 0.995)
        if self.step % 50 == 0:
            self.q_target.load_state_dict(self.q.state_dict())
        return loss.item()


def fake_batch(rng, n=32):
    return (rng.normal(size=(n, 4)).astype(np.float32), rng.integers(0, 2, n),
            rng.normal(size=n).astype(np.float32), rng.normal(size=(n, 4)).astype(np.float32),
            (rng.random(n) < 0.05).astype(np.float32))


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--ckpt", default=os.path.join(tempfile.mkdtemp(), "dqn.pt"))
    p.add_argument("--cpu", action="store_true")
    args = p.parse_args()
    device = torch.device("cuda" if torch.cuda.is_available() and not args.cpu else "cpu")
    rng = np.random.default_rng(0)

    trainer = Trainer(device, ckpt_path=args.ckpt)
    for _ in range(100):
        loss = trainer.train_batch(*fake_batch(rng))
    trainer.save(args.ckpt)
    print(f"saved at step {trainer.step}, loss {loss:.4f}")

    resumed = Trainer(device, ckpt_path=args.ckpt)
    for _ in range(100):
        loss = resumed.train_batch(*fake_batch(rng))
    print(f"resumed to step {resumed.step}, eps {resumed.eps:.3f}, loss {loss:.4f}")


if __name__ == "__main__":
    main()
