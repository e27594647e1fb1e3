"""Double DQN on a NumPy cart-pole clone: replay buffer sampled straight onto the device, target net synced.

Correct look-alike written from the DQN threads (pytorch/tutorials "fixing q-learning cuda
problems", RL-Adventure "cuda tensor instead of int", Deep-RL-Hands-On "gather_out_cpu(): Expected
dtype int64 for index", RLSharp "Torch Device using Uniform Replay"): the target network is copied
after the online net is on the device, actions leave through `.item()`, sampled batches are built
with `device=`, and the evaluation reload uses `map_location`.
"""
import copy
import math
import os
import tempfile

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


class CartPole:
    def __init__(self, seed=0):
        self.rng = np.random.default_rng(seed)

    def reset(self):
        self.s, self.t = self.rng.uniform(-0.05, 0.05, 4), 0
        return self.s.astype(np.float32)

    def step(self, a):
        x, xd, th, thd = self.s
        force = 10.0 if a == 1 else -10.0
        tmp = (force + 0.05 * thd ** 2 * math.sin(th)) / 1.1
        thacc = (9.8 * math.sin(th) - math.cos(th) * tmp) / (0.5 * (4 / 3 - 0.1 * math.cos(th) ** 2 / 1.1))
        xacc = tmp - 0.05 * thacc * math.cos(th) / 1.1
        self.s = np.array([x + 0.02 * xd, xd + 0.02 * xacc, th + 0.02 * thd, thd + 0.02 * thacc])
        self.t += 1
        done = abs(self.s[0]) > 2.4 or abs(self.s[2]) > 0.21 or self.t >= 200
        return self.s.astype(np.float32), 1.0, done


class Replay:
    def __init__(self, cap, obs_dim):
        self.obs = np.zeros((cap, obs_dim), np.float32)
        self.next_obs = np.zeros((cap, obs_dim), np.float32)
        self.act, self.rew, self.done = np.zeros(cap, np.int64), np.zeros(cap, np.float32), np.zeros(cap, np.float32)
        self.cap, self.n = cap, 0

    def add(self, o, a, r, o2, d):
        i = self.n % self.cap
        self.obs[i], self.act[i], self.rew[i], self.next_obs[i], self.done[i] = o, a, r, o2, d
        self.n += 1

    def sample(self, bs, device):
        idx = np.random.randint(0, min(self.n, self.cap), bs)
        return tuple(torch.as_tensor(arr[idx], device=device)
                     for arr in (self.obs, self.act, self.rew, self.next_obs, self.done))


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    np.random.seed(0)
    torch.manual_seed(0)
    env, replay = CartPole(), Replay(10000, 4)
    online = nn.Sequential(nn.Linear(4, 64), nn.ReLU(), nn.Linear(64, 2)).to(device)
    target = copy.deepcopy(online)
    opt = torch.optim.Adam(online.parameters(), lr=1e-3)
    obs, ep_ret, eps = env.reset(), 0.0, 1.0
    for step in range(3000):
        if np.random.rand() < eps:
            action = np.random.randint(2)
        else:
            with torch.no_grad():
                action = online(torch.as_tensor(obs, device=device)).argmax().item()
        obs2, r, done = env.step(action)
        replay.add(obs, action, r, obs2, float(done))
        obs, ep_ret = (env.reset(), 0.0) if done else (obs2, ep_ret + r)
        eps = max(0.05, eps - 1 / 2000)
        if replay.n >= 256:
            o, a, r_b, o2, d = replay.sample(64, device)
            q = online(o).gather(1, a.unsqueeze(1)).squeeze(1)
            with torch.no_grad():
                best = online(o2).argmax(1, keepdim=True)
                y = r_b + 0.99 * (1 - d) * target(o2).gather(1, best).squeeze(1)
            loss = F.smooth_l1_loss(q, y)
            opt.zero_grad()
            loss.backward()
            opt.step()
        if step % 500 == 0:
            target.load_state_dict(online.state_dict())
    path = os.path.join(tempfile.gettempdir(), "d_dqn_online.pt")
    torch.save(online.state_dict(), path)
    online.load_state_dict(torch.load(path, map_location=device))
    print(f"saved and reloaded; last loss {loss.item():.4f}")


if __name__ == "__main__":
    main()
