"""DQN collecting from several environments at once; the replay buffer hands
out tensors already on the training device.

    python i_dqn_vecenv_device.py --num-envs 4 --steps 300
"""
import argparse
import copy
import os
import tempfile

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


class Corridor:
    def __init__(self, length=7):
        self.length = length

    def reset(self):
        self.pos, self.t = self.length // 2, 0
        return self.obs()

    def obs(self):
        o = np.zeros(self.length, dtype=np.float32)
        o[self.pos] = 1.0
        return o

    def step(self, a):
        self.pos += 1 if a == 1 else -1
        self.t += 1
        if self.pos in (0, self.length - 1):
            r = 1.0 if self.pos == self.length - 1 else -1.0
            return self.reset(), r, True
        if self.t >= 30:
            return self.reset(), 0.0, True
        return self.obs(), -0.01, False


class VecCorridor:
    def __init__(self, n):
        self.envs = [Corridor() for _ in range(n)]

    def reset(self):
        return np.stack([e.reset() for e in self.envs])

    def step(self, actions):
        out = [e.step(int(a)) for e, a in zip(self.envs, actions)]
        obs, rew, done = zip(*out)
        return np.stack(obs), np.array(rew, dtype=np.float32), np.array(done, dtype=np.float32)


class TensorReplay:
    """Ring buffer stored as tensors on `device`."""

    def __init__(self, capacity, obs_dim, device):
        self.device = device
        self.obs = torch.zeros(capacity, obs_dim, device=device)
        self.next_obs = torch.zeros(capacity, obs_dim, device=device)
        self.actions = torch.zeros(capacity, dtype=torch.long, device=device)
        self.rewards = torch.zeros(capacity, device=device)
        self.dones = torch.zeros(capacity, device=device)
        self.capacity, self.ptr, self.size = capacity, 0, 0

    def add_batch(self, obs, actions, rewards, next_obs, dones):
        n = len(obs)
        idx = (torch.arange(n) + self.ptr) % self.capacity
        self.obs[idx] = torch.as_tensor(obs, device=self.device)
        self.actions[idx] = torch.as_tensor(actions, device=self.device)
        self.rewards[idx] = torch.as_tensor(rewards, device=self.device)
        self.next_obs[idx] = torch.as_tensor(next_obs, device=self.device)
        self.dones[idx] = torch.as_tensor(dones, device=self.device)
        self.ptr = (self.ptr + n) % self.capacity
        self.size = min(self.size + n, self.capacity)

    def sample(self, batch_size):
        idx = torch.randint(0, self.size, (batch_size,))
        return self.obs[idx], self.actions[idx], self.rewards[idx], self.next_obs[idx], self.dones[idx]


class QNet(nn.Module):
    def __init__(self, obs_dim, n_actions):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(obs_dim, 64), nn.ReLU(), nn.Linear(64, n_actions))

    def forward(self, x):
        return self.net(x)


def epsilon_greedy(qnet, obs_batch, epsilon, n_actions, device, rng):
    with torch.no_grad():
        greedy = qnet(torch.as_tensor(obs_batch, device=device)).argmax(1).cpu().numpy()
    explore = rng.random(len(obs_batch)) < epsilon
    return np.where(explore, rng.integers(0, n_actions, len(obs_batch)), greedy)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--num-envs", type=int, default=4)
    p.add_argument("--steps", type=int, default=300)
    p.add_argument("--init-from", default="")
    p.add_argument("--save", default=os.path.join(tempfile.gettempdir(), "i_dqn_vec.pt"))
    args = p.parse_args()

    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    rng = np.random.default_rng(0)
    torch.manual_seed(0)
    envs = VecCorridor(args.num_envs)
    obs_dim, n_actions = 7, 2

    qnet = QNet(obs_dim, n_actions)
    if args.init_from:
        qnet.load_state_dict(torch.load(args.init_from, map_location="cpu"))
    qnet.to(device)
    target = copy.deepcopy(qnet).eval()
    optimizer = torch.optim.Adam(qnet.parameters(), lr=1e-3)
    buffer = TensorReplay(4096, obs_dim, device)
    gamma = torch.tensor(0.98)

    obs = envs.reset()
    for step in range(args.steps):
        eps = max(0.05, 1 - step / 200)
        actions = epsilon_greedy(qnet, obs, eps, n_actions, device, rng)
        next_obs, rewards, dones = envs.step(actions)
        buffer.add_batch(obs, actions, rewards, next_obs, dones)
        obs = next_obs
        if buffer.size >= 64:
            o, a, r, o2, d = buffer.sample(64)
            q = qnet(o).gather(1, a[:, None]).squeeze(1)
            with torch.no_grad():
                y = r + gamma * (1 - d) * target(o2).max(1).values
            loss = F.smooth_l1_loss(q, y)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            if step % 50 == 0:
                target.load_state_dict(qnet.state_dict())
                print(f"step {step} loss {loss.item():.4f} eps {eps:.2f}")
    torch.save(qnet.state_dict(), args.save)


if __name__ == "__main__":
    main()
