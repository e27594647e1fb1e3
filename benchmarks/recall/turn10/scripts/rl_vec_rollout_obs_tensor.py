"""Policy-gradient training over a batch of NumPy environments: each step turns the observations
into a tensor for the actor-critic, samples actions and steps the environments with them.

Thread: https://github.com/thu-ml/tianshou/issues/589 (not all tensors on same device: a custom
environment returns NumPy arrays).
"""
import numpy as np
import torch
import torch.nn as nn
from torch.distributions import Categorical


class VecTarget:
    """n independent 1-D walkers that are rewarded for reaching a target cell."""

    def __init__(self, n=16, size=10, seed=0):
        self.rng = np.random.default_rng(seed)
        self.n, self.size = n, size
        self.pos = self.rng.integers(0, size, n)
        self.goal = self.rng.integers(0, size, n)

    def observe(self):
        return np.stack([self.pos / self.size, self.goal / self.size], axis=1).astype(np.float32)

    def step(self, actions):
        self.pos = np.clip(self.pos + np.where(actions == 1, 1, -1), 0, self.size - 1)
        reached = self.pos == self.goal
        self.goal = np.where(reached, self.rng.integers(0, self.size, self.n), self.goal)
        return self.observe(), reached.astype(np.float32)


class ActorCritic(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(2, 64), nn.Tanh())
        self.pi, self.v = nn.Linear(64, 2), nn.Linear(64, 1)

    def forward(self, obs):
        h = self.body(obs)
        return self.pi(h), self.v(h).squeeze(-1)


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    env, net = VecTarget(), ActorCritic().to(device)
    opt = torch.optim.Adam(net.parameters(), lr=3e-3)
    obs = env.observe()
    for update in range(50):
        logps, values, rewards = [], [], []
        for t in range(16):
            obs_t = torch.tensor(obs, dtype=torch.float32)  # expect: DEV006
            logits, value = net(obs_t)
            dist = Categorical(logits=logits)
            action = dist.sample()
            obs, reward = env.step(action.numpy())  # expect: DEV011
            logps.append(dist.log_prob(action))
            values.append(value)
            rewards.append(torch.as_tensor(reward, device=device))
        ret, returns = torch.zeros(env.n, device=device), []
        for r in reversed(rewards):
            ret = r + 0.9 * ret
            returns.insert(0, ret)
        returns, values = torch.stack(returns), torch.stack(values)
        adv = (returns - values).detach()
        loss = -(torch.stack(logps) * adv).mean() + 0.5 * (returns - values).pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
    print("mean reward", torch.stack(rewards).mean().item())


if __name__ == "__main__":
    main()
