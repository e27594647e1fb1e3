"""PPO with GAE on a batch of vectorised numpy bandit-walk environments.

The actor trunk is shared between the policy head and the critic head.
"""
import numpy as np
import torch
import torch.nn as nn
from torch.distributions import Categorical


class VecWalk:
    def __init__(self, num_envs, size=6, seed=0):
        self.rng = np.random.default_rng(seed)
        self.num_envs, self.size = num_envs, size
        self.pos = np.zeros(num_envs, dtype=np.int64)

    def obs(self):
        o = np.zeros((self.num_envs, self.size), np.float32)
        o[np.arange(self.num_envs), self.pos] = 1
        return o

    def reset(self):
        self.pos[:] = 0
        return self.obs()

    def step(self, actions):
        self.pos = np.clip(self.pos + np.where(actions == 1, 1, -1), 0, self.size - 1)
        done = self.pos == self.size - 1
        reward = done.astype(np.float32) - 0.01
        self.pos[done] = 0
        return self.obs(), reward, done


class Agent(nn.Module):
    def __init__(self, obs_dim, n_actions, hidden=64):
        super().__init__()
        self.trunk = nn.Sequential(nn.Linear(obs_dim, hidden), nn.Tanh())
        self.pi = nn.Linear(hidden, n_actions)
        self.value_head = nn.Linear(hidden, 1)

    def forward(self, obs):
        h = self.trunk(obs)
        return Categorical(logits=self.pi(h)), self.value_head(h).squeeze(-1)


def compute_gae(rewards, values, dones, last_value, gamma=0.99, lam=0.95):
    adv = torch.zeros_like(rewards)
    last = torch.zeros_like(last_value)
    for t in reversed(range(rewards.size(0))):
        next_v = last_value if t == rewards.size(0) - 1 else values[t + 1]
        nonterm = 1.0 - dones[t]
        delta = rewards[t] + gamma * next_v * nonterm - values[t]
        last = delta + gamma * lam * nonterm * last
        adv[t] = last
    return adv, adv + values


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    torch.manual_seed(0)
    num_envs, horizon = 8, 32
    envs = VecWalk(num_envs)
    agent = Agent(envs.size, 2).to(device)
    opt = torch.optim.Adam(agent.parameters(), lr=3e-3)

    obs_np = envs.reset()
    for update in range(5):
        buf = {k: [] for k in ("obs", "act", "logp", "val", "rew", "done")}
        for _ in range(horizon):
            obs = torch.tensor(obs_np, device=device)
            with torch.no_grad():
                dist, value = agent(obs)
                action = dist.sample()
            obs_np, rew, done = envs.step(action.cpu().numpy())
            buf["obs"].append(obs); buf["act"].append(action)
            buf["logp"].append(dist.log_prob(action)); buf["val"].append(value)
            buf["rew"].append(torch.as_tensor(rew, device=device))
            buf["done"].append(torch.as_tensor(done, dtype=torch.float32, device=device))
        with torch.no_grad():
            _, last_value = agent(torch.as_tensor(obs_np, device=device))
        st = {k: torch.stack(v) for k, v in buf.items()}
        adv, ret = compute_gae(st["rew"], st["val"], st["done"], last_value)
        adv = (adv - adv.mean()) / (adv.std() + 1e-8)
        for _ in range(4):
            dist, value = agent(st["obs"].reshape(-1, envs.size))
            ratio = (dist.log_prob(st["act"].reshape(-1)) - st["logp"].reshape(-1)).exp()
            a = adv.reshape(-1)
            pg = -torch.min(ratio * a, ratio.clamp(0.8, 1.2) * a).mean()
            vf = 0.5 * (value - ret.reshape(-1)).pow(2).mean()
            loss = pg + vf - 0.01 * dist.entropy().mean()
            opt.zero_grad()
            loss.backward()
            opt.step()
        print(f"update {update}: mean reward {st['rew'].mean().item():+.3f} loss {loss.item():.3f}")


if __name__ == "__main__":
    main()
