"""Double DQN on a tiny corridor environment, numpy replay buffer, hard target updates."""
import copy
import random

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


class Corridor:
    """Walk left/right on a line of n cells; reward 1 at the right end."""

    def __init__(self, n=8):
        self.n = n

    def reset(self):
        self.pos = 0
        return self._obs()

    def _obs(self):
        o = np.zeros(self.n, dtype=np.float32)
        o[self.pos] = 1.0
        return o

    def step(self, action):
        self.pos = max(0, min(self.n - 1, self.pos + (1 if action == 1 else -1)))
        done = self.pos == self.n - 1
        return self._obs(), float(done), done


class ReplayBuffer:
    def __init__(self, capacity, obs_dim):
        self.obs = np.zeros((capacity, obs_dim), np.float32)
        self.next_obs = np.zeros((capacity, obs_dim), np.float32)
        self.act = np.zeros(capacity, np.int64)
        self.rew = np.zeros(capacity, np.float32)
        self.done = np.zeros(capacity, np.float32)
        self.capacity, self.size, self.ptr = capacity, 0, 0

    def add(self, o, a, r, o2, d):
        i = self.ptr
        self.obs[i], self.act[i], self.rew[i], self.next_obs[i], self.done[i] = o, a, r, o2, d
        self.ptr = (self.ptr + 1) % self.capacity
        self.size = min(self.size + 1, self.capacity)

    def sample(self, batch_size, device):
        idx = np.random.randint(0, self.size, batch_size)
        to = lambda a: torch.as_tensor(a[idx], device=device)
        return to(self.obs), to(self.act), to(self.rew), to(self.next_obs), to(self.done)


class QNet(nn.Module):
    def __init__(self, obs_dim, n_actions):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(obs_dim, 64), nn.ReLU(), nn.Linear(64, n_actions))

    def forward(self, x):
        return self.net(x)


def select_action(qnet, obs, epsilon, device):
    if random.random() < epsilon:
        return random.randrange(2)
    with torch.no_grad():
        q = qnet(torch.as_tensor(obs, device=device).unsqueeze(0))
    return int(q.argmax(dim=1).numpy()[0])  # expect: DEV011


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    random.seed(0); np.random.seed(0); torch.manual_seed(0)
    env = Corridor()
    policy = QNet(env.n, 2)
    target = copy.deepcopy(policy)  # expect: DEV016
    policy.to(device)
    target.eval()
    opt = torch.optim.Adam(policy.parameters(), lr=1e-3)
    buf = ReplayBuffer(5000, env.n)
    gamma, steps, obs, ep_ret = 0.95, 0, env.reset(), 0.0

    for steps in range(1, 1501):
        eps = max(0.05, 1.0 - steps / 800)
        a = select_action(policy, obs, eps, device)
        obs2, r, done = env.step(a)
        buf.add(obs, a, r, obs2, float(done))
        obs, ep_ret = (env.reset(), 0.0) if done else (obs2, ep_ret + r)
        if buf.size >= 64:
            o, act, rew, o2, d = buf.sample(64, device)
            with torch.no_grad():
                best = policy(o2).argmax(1, keepdim=True)
                q_next = target(o2).gather(1, best).squeeze(1)
                y = rew + gamma * (1 - d) * q_next
            q = policy(o).gather(1, act.unsqueeze(1)).squeeze(1)
            loss = F.smooth_l1_loss(q, y)
            opt.zero_grad()
            loss.backward()
            opt.step()
        if steps % 200 == 0:
            target.load_state_dict(policy.state_dict())
            print(f"step {steps} eps {eps:.2f}")


if __name__ == "__main__":
    main()
