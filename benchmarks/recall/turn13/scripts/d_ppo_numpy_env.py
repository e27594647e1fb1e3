"""PPO on a gym-style NumPy point-mass environment with a NumPy rollout buffer and GAE.

From RL threads where a CUDA policy feeds a NumPy environment: "TypeError: can't convert cuda:0
device type tensor to numpy. Use Tensor.cpu() to copy the tensor to host memory first." raised
from `env.step(action.numpy())` (PARL's cartpole agent, rlcard's NFSP agent, RLlib with a GPU),
and the value loss that meets returns rebuilt from NumPy on the CPU.
"""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.distributions import Normal


class PointEnv:
    """Move a point towards the origin; continuous 2-d action, gym-style API."""

    def __init__(self, horizon=50, seed=0):
        self.rng = np.random.default_rng(seed)
        self.horizon = horizon

    def reset(self):
        self.t = 0
        self.pos = self.rng.uniform(-1, 1, size=2).astype(np.float32)
        return self.pos.copy()

    def step(self, action):
        self.t += 1
        self.pos = np.clip(self.pos + 0.1 * np.clip(action, -1, 1), -2, 2).astype(np.float32)
        reward = -float(np.linalg.norm(self.pos))
        done = self.t >= self.horizon
        return self.pos.copy(), reward, done, {}


class ActorCritic(nn.Module):
    def __init__(self, obs_dim=2, act_dim=2, hidden=64):
        super().__init__()
        self.pi = nn.Sequential(nn.Linear(obs_dim, hidden), nn.Tanh(), nn.Linear(hidden, act_dim))
        self.v = nn.Sequential(nn.Linear(obs_dim, hidden), nn.Tanh(), nn.Linear(hidden, 1))
        self.log_std = nn.Parameter(torch.full((act_dim,), -0.5))

    def dist(self, obs):
        return Normal(self.pi(obs), self.log_std.exp())

    def forward(self, obs):
        return self.dist(obs), self.v(obs).squeeze(-1)


def gae(rewards, values, dones, last_value, gamma=0.99, lam=0.95):
    adv = np.zeros_like(rewards)
    last = 0.0
    for t in reversed(range(len(rewards))):
        next_v = last_value if t == len(rewards) - 1 else values[t + 1]
        nonterminal = 1.0 - dones[t]
        delta = rewards[t] + gamma * next_v * nonterminal - values[t]
        last = delta + gamma * lam * nonterminal * last
        adv[t] = last
    return adv, adv + values


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    torch.manual_seed(0)
    env = PointEnv()
    agent = ActorCritic().to(device)
    opt = torch.optim.Adam(agent.parameters(), lr=3e-4)
    obs = env.reset()

    for update in range(5):
        buf = {k: [] for k in ("obs", "act", "logp", "rew", "val", "done")}
        for _ in range(128):
            obs_t = torch.as_tensor(obs, device=device)
            with torch.no_grad():
                dist, value = agent(obs_t)
                action = dist.sample()
            next_obs, reward, done, _ = env.step(action.numpy())  # expect: DEV011
            buf["obs"].append(obs)
            buf["act"].append(action.cpu().numpy())
            buf["logp"].append(dist.log_prob(action).sum().item())
            buf["rew"].append(reward)
            buf["val"].append(value.item())
            buf["done"].append(float(done))
            obs = env.reset() if done else next_obs
        with torch.no_grad():
            last_v = agent(torch.as_tensor(obs, device=device))[1].item()
        arr = {k: np.asarray(v, dtype=np.float32) for k, v in buf.items()}
        adv, ret = gae(arr["rew"], arr["val"], arr["done"], last_v)

        b_obs = torch.as_tensor(arr["obs"], device=device)
        b_act = torch.as_tensor(arr["act"], device=device)
        b_logp = torch.as_tensor(arr["logp"], device=device)
        b_adv = torch.as_tensor((adv - adv.mean()) / (adv.std() + 1e-8), device=device)
        b_ret = torch.as_tensor(ret)
        for _ in range(4):
            for idx in torch.randperm(128).split(32):
                dist, value = agent(b_obs[idx])
                ratio = (dist.log_prob(b_act[idx]).sum(-1) - b_logp[idx]).exp()
                clipped = ratio.clamp(0.8, 1.2) * b_adv[idx]
                policy_loss = -torch.min(ratio * b_adv[idx], clipped).mean()
                value_loss = F.mse_loss(value, b_ret[idx])  # expect: DEV004
                loss = policy_loss + 0.5 * value_loss
                opt.zero_grad()
                loss.backward()
                opt.step()
        print(f"update {update}: mean reward {arr['rew'].mean():.3f}")


if __name__ == "__main__":
    main()
