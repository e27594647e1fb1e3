"""DQN on a toy chain environment with a NumPy replay buffer; the sampled batch is converted to
tensors and moved field by field."""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


class Replay:
    def __init__(self, cap, obs_dim):
        self.obs = np.zeros((cap, obs_dim), np.float32)
        self.next_obs = np.zeros((cap, obs_dim), np.float32)
        self.act = np.zeros(cap, np.int64)
        self.rew = np.zeros(cap, np.float32)
        self.done = np.zeros(cap, np.float32)
        self.n, self.cap = 0, cap

    def add(self, o, a, r, o2, d):
        i = self.n % self.cap
        self.obs[i], self.act[i], self.rew[i], self.next_obs[i], self.done[i] = o, a, r, o2, d
        self.n += 1

    def sample(self, k):
        idx = np.random.randint(0, min(self.n, self.cap), k)
        return self.obs[idx], self.act[idx], self.rew[idx], self.next_obs[idx], self.done[idx]


def step(state, action):
    nxt = min(max(state + (1 if action else -1), 0), 5)
    return nxt, float(nxt == 5), nxt == 5


def one_hot(s):
    v = np.zeros(6, np.float32)
    v[s] = 1.0
    return v


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    q = nn.Sequential(nn.Linear(6, 32), nn.ReLU(), nn.Linear(32, 2)).to(device)
    opt = torch.optim.Adam(q.parameters(), lr=1e-3)
    buf = Replay(1000, 6)
    s = 0
    for t in range(400):
        a = np.random.randint(2)
        s2, r, d = step(s, a)
        buf.add(one_hot(s), a, r, one_hot(s2), d)
        s = 0 if d else s2
        if buf.n < 32:
            continue
        o, a_b, r_b, o2, d_b = buf.sample(32)
        o = torch.from_numpy(o).to(device)
        o2 = torch.from_numpy(o2).to(device)
        a_b = torch.from_numpy(a_b).to(device)
        r_b = torch.from_numpy(r_b)  # expect: DEV006
        d_b = torch.from_numpy(d_b).to(device)
        with torch.no_grad():
            target = r_b + 0.99 * (1 - d_b) * q(o2).max(1).values
        pred = q(o).gather(1, a_b[:, None]).squeeze(1)
        loss = F.smooth_l1_loss(pred, target)
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(loss.item())


if __name__ == "__main__":
    main()
