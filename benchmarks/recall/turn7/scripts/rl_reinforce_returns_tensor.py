"""REINFORCE with a baseline on a bandit-like task: discounted returns are computed in Python and
turned into a tensor for the policy-gradient loss."""
import numpy as np
import torch
import torch.nn as nn


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    policy = nn.Sequential(nn.Linear(4, 32), nn.Tanh(), nn.Linear(32, 3)).to(device)
    value = nn.Sequential(nn.Linear(4, 32), nn.Tanh(), nn.Linear(32, 1)).to(device)
    opt = torch.optim.Adam(list(policy.parameters()) + list(value.parameters()), lr=3e-3)
    rng = np.random.default_rng(0)
    for episode in range(30):
        logps, vals, rewards = [], [], []
        for t in range(10):
            obs = torch.as_tensor(rng.normal(size=4), dtype=torch.float32, device=device)
            dist = torch.distributions.Categorical(logits=policy(obs))
            a = dist.sample()
            logps.append(dist.log_prob(a))
            vals.append(value(obs).squeeze())
            rewards.append(1.0 if a.item() == 2 else 0.0)
        g, rets = 0.0, []
        for r in reversed(rewards):
            g = r + 0.95 * g
            rets.insert(0, g)
        returns = torch.tensor(rets)  # expect: DEV006
        values = torch.stack(vals)
        adv = returns - values.detach()
        loss = -(torch.stack(logps) * adv).mean() + (returns - values).pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(loss.item())


if __name__ == "__main__":
    main()
