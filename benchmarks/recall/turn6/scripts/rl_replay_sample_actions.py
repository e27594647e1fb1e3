"""Double DQN with a preallocated NumPy replay buffer whose sample() hands back torch tensors;
the trainer moves what it thinks the network needs."""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


class ReplayBuffer:
    def __init__(self, capacity, obs_dim):
        self.obs = np.zeros((capacity, obs_dim), dtype=np.float32)
        self.next_obs = np.zeros((capacity, obs_dim), dtype=np.float32)
        self.actions = np.zeros(capacity, dtype=np.int64)
        self.rewards = np.zeros(capacity, dtype=np.float32)
        self.dones = np.zeros(capacity, dtype=np.float32)
        self.capacity, self.size, self.ptr = capacity, 0, 0

    def add(self, o, a, r, o2, d):
        i = self.ptr
        self.obs[i], self.actions[i], self.rewards[i], self.next_obs[i], self.dones[i] = o, a, r, o2, d
        self.ptr = (self.ptr + 1) % self.capacity
        self.size = min(self.size + 1, self.capacity)

    def sample(self, n):
        idx = np.random.randint(0, self.size, n)
        obs = torch.from_numpy(self.obs[idx])
        actions = torch.from_numpy(self.actions[idx])  # expect: DEV006
        rewards = torch.from_numpy(self.rewards[idx])
        return obs, actions, rewards, torch.from_numpy(self.next_obs[idx]), torch.from_numpy(self.dones[idx])


def update(online, target, opt, buf, device, gamma=0.99):
    o, a, r, o2, d = buf.sample(32)
    o, r, o2, d = o.to(device), r.to(device), o2.to(device), d.to(device)
    with torch.no_grad():
        best = online(o2).argmax(1, keepdim=True)
        y = r + gamma * (1 - d) * target(o2).gather(1, best).squeeze(1)
    q_sa = online(o).gather(1, a.unsqueeze(1)).squeeze(1)
    loss = F.mse_loss(q_sa, y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    return loss.item()


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    online = nn.Sequential(nn.Linear(4, 64), nn.ReLU(), nn.Linear(64, 3)).to(device)
    target = nn.Sequential(nn.Linear(4, 64), nn.ReLU(), nn.Linear(64, 3)).to(device)
    target.load_state_dict(online.state_dict())
    opt = torch.optim.Adam(online.parameters(), lr=5e-4)
    buf = ReplayBuffer(1000, 4)
    rng = np.random.default_rng(0)
    for step in range(300):
        o = rng.normal(size=4).astype(np.float32)
        a = int(rng.integers(3))
        buf.add(o, a, float(o[a]), o + 0.1, float(step % 50 == 49))
        if buf.size >= 64:
            update(online, target, opt, buf, device)
        if step % 100 == 0:
            target.load_state_dict(online.state_dict())


if __name__ == "__main__":
    main()
