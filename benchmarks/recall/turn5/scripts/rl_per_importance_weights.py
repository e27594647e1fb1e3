"""Double DQN with a prioritised replay buffer kept in NumPy; importance-sampling weights scale
the TD errors."""
import argparse
import copy

import gymnasium as gym
import numpy as np
import torch
import torch.nn as nn


class PrioritisedReplay:
    def __init__(self, capacity, obs_dim, alpha=0.6):
        self.obs = np.zeros((capacity, obs_dim), np.float32)
        self.next_obs = np.zeros((capacity, obs_dim), np.float32)
        self.act = np.zeros(capacity, np.int64)
        self.rew = np.zeros(capacity, np.float32)
        self.done = np.zeros(capacity, np.float32)
        self.prio = np.zeros(capacity, np.float64)
        self.alpha, self.capacity, self.ptr, self.size = alpha, capacity, 0, 0

    def add(self, o, a, r, o2, d):
        i = self.ptr
        self.obs[i], self.act[i], self.rew[i], self.next_obs[i], self.done[i] = o, a, r, o2, d
        self.prio[i] = self.prio[: self.size].max() if self.size else 1.0
        self.ptr, self.size = (i + 1) % self.capacity, min(self.size + 1, self.capacity)

    def sample(self, n, beta):
        p = self.prio[: self.size] ** self.alpha
        p /= p.sum()
        idx = np.random.choice(self.size, n, p=p)
        w = (self.size * p[idx]) ** (-beta)
        return idx, w / w.max(), (self.obs[idx], self.act[idx], self.rew[idx], self.next_obs[idx], self.done[idx])


def update(q, target, opt, buf, device, gamma=0.99, beta=0.4):
    idx, weights, batch = buf.sample(64, beta)
    o, a, r, o2, d = (torch.as_tensor(v).to(device) for v in batch)
    with torch.no_grad():
        a2 = q(o2).argmax(1, keepdim=True)
        y = r + gamma * (1 - d) * target(o2).gather(1, a2).squeeze(1)
    td = q(o).gather(1, a[:, None]).squeeze(1) - y
    w = torch.tensor(weights, dtype=torch.float32)  # expect: DEV006
    loss = (w * td.pow(2)).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    buf.prio[idx] = td.abs().detach().cpu().numpy() + 1e-5


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--steps", type=int, default=20000)
    args = parser.parse_args()
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    env = gym.make("CartPole-v1")
    q = nn.Sequential(nn.Linear(4, 128), nn.ReLU(), nn.Linear(128, 2)).to(device)
    target = copy.deepcopy(q)
    opt = torch.optim.Adam(q.parameters(), lr=5e-4)
    buf = PrioritisedReplay(50000, 4)
    obs, _ = env.reset(seed=0)
    for step in range(args.steps):
        eps = max(0.05, 1 - step / 5000)
        if np.random.rand() < eps:
            act = env.action_space.sample()
        else:
            with torch.no_grad():
                act = int(q(torch.as_tensor(obs, device=device)).argmax())
        obs2, r, term, trunc, _ = env.step(act)
        buf.add(obs, act, r, obs2, float(term))
        obs = env.reset()[0] if term or trunc else obs2
        if buf.size > 1000:
            update(q, target, opt, buf, device)
        if step % 1000 == 0:
            target.load_state_dict(q.state_dict())


if __name__ == "__main__":
    main()
