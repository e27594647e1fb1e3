"""Double DQN agent class with soft target updates (correct look-alike).

Written from the same RL threads as the buggy DQN scripts ("Not all tensors on
same device", thu-ml/tianshou#589; "Feature/cpu replay buffer",
cpnota/autonomous-learning-library#186): the replay buffer stays in numpy on
the host, every sampled batch is moved, the target network is copied after the
online network has been moved, and observations are built on the device.
"""
import copy
import os
import tempfile

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


class NoisyChain:
    """Continuous 3-d observation; action 1 moves right, reward at the end."""

    def __init__(self, length=6, seed=0):
        self.length, self.rng = length, np.random.default_rng(seed)

    def reset(self):
        self.t, self.pos = 0, 0
        return self._obs()

    def _obs(self):
        noise = self.rng.normal(0, 0.05, size=2)
        return np.array([self.pos / self.length, *noise], dtype=np.float32)

    def step(self, action):
        self.t += 1
        self.pos = min(self.length, self.pos + 1) if action == 1 else max(0, self.pos - 1)
        done = self.pos == self.length or self.t >= 30
        return self._obs(), 1.0 if self.pos == self.length else -0.01, done


class Agent:
    def __init__(self, obs_dim, n_actions, device, gamma=0.97, tau=0.01):
        self.device, self.n_actions, self.tau = device, n_actions, tau
        self.online = nn.Sequential(nn.Linear(obs_dim, 64), nn.Tanh(), nn.Linear(64, n_actions)).to(device)
        self.target = copy.deepcopy(self.online).requires_grad_(False)
        self.gamma = torch.tensor(gamma)  # 0-dim: fine against device tensors
        self.opt = torch.optim.Adam(self.online.parameters(), lr=5e-4)

    @torch.no_grad()
    def act(self, obs, eps):
        if np.random.rand() < eps:
            return int(np.random.randint(self.n_actions))
        obs_t = torch.as_tensor(obs, dtype=torch.float32, device=self.device)
        return int(self.online(obs_t.unsqueeze(0)).argmax(dim=1).item())

    def learn(self, batch):
        obs, actions, rewards, next_obs, dones = (
            torch.from_numpy(x).to(self.device, non_blocking=True) for x in batch
        )
        q_sa = self.online(obs).gather(1, actions.unsqueeze(1)).squeeze(1)
        with torch.no_grad():
            best = self.online(next_obs).argmax(dim=1, keepdim=True)
            next_q = self.target(next_obs).gather(1, best).squeeze(1)
            target = rewards + self.gamma * (1.0 - dones) * next_q
        loss = F.mse_loss(q_sa, target)
        self.opt.zero_grad()
        loss.backward()
        self.opt.step()
        with torch.no_grad():
            for tp, p in zip(self.target.parameters(), self.online.parameters()):
                tp.lerp_(p, self.tau)
        return loss.item()


def main():
    np.random.seed(1)
    torch.manual_seed(1)
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    env, agent = NoisyChain(), Agent(3, 2, device)
    storage = {k: [] for k in ("obs", "act", "rew", "next", "done")}
    obs, eps, losses = env.reset(), 1.0, []
    for step in range(1500):
        action = agent.act(obs, eps)
        next_obs, reward, done = env.step(action)
        for k, v in zip(storage, (obs, action, reward, next_obs, float(done))):
            storage[k].append(v)
        obs = env.reset() if done else next_obs
        eps = max(0.05, eps * 0.995)
        if len(storage["obs"]) >= 128:
            idx = np.random.randint(0, len(storage["obs"]), size=64)
            batch = (
                np.stack([storage["obs"][i] for i in idx]),
                np.array([storage["act"][i] for i in idx], dtype=np.int64),
                np.array([storage["rew"][i] for i in idx], dtype=np.float32),
                np.stack([storage["next"][i] for i in idx]),
                np.array([storage["done"][i] for i in idx], dtype=np.float32),
            )
            losses.append(agent.learn(batch))

    path = os.path.join(tempfile.gettempdir(), "double_dqn_agent.pt")
    torch.save({"online": agent.online.state_dict(), "target": agent.target.state_dict()}, path)
    state = torch.load(path, map_location=device)
    agent.online.load_state_dict(state["online"])
    print(f"mean loss {np.mean(losses[-100:]):.4f}, eps {eps:.2f}")


if __name__ == "__main__":
    main()
