"""PPO on a tiny NumPy corridor environment (no gym needed): rollouts are collected step by step
with the actor-critic on the GPU, then optimised for a few epochs with the clipped objective.

Threads: https://github.com/ray-project/ray/issues/9437 ([rllib] numpy observations are not put
on the GPU the policy runs on) and https://github.com/floracharbo/MARL_local_electricity/pull/65
(Fix "can't convert cuda:0 device type tensor to numpy" when actions go back to the environment).
"""
import numpy as np
import torch
import torch.nn as nn
from torch.distributions import Categorical


class Corridor:
    def __init__(self, n=9):
        self.n = n

    def reset(self):
        self.pos = self.n // 2
        return self._obs()

    def _obs(self):
        obs = np.zeros(self.n, dtype=np.float32)
        obs[self.pos] = 1.0
        return obs

    def step(self, action):
        self.pos = int(np.clip(self.pos + (1 if int(action) == 1 else -1), 0, self.n - 1))
        done = self.pos in (0, self.n - 1)
        return self._obs(), (1.0 if self.pos == self.n - 1 else -0.01), done


class ActorCritic(nn.Module):
    def __init__(self, n_obs=9, n_act=2):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(n_obs, 32), nn.Tanh())
        self.pi, self.v = nn.Linear(32, n_act), nn.Linear(32, 1)

    def forward(self, obs):
        h = self.body(obs)
        return self.pi(h), self.v(h).squeeze(-1)


def main(gamma=0.99, clip=0.2):
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    env, ac = Corridor(), ActorCritic().to(device)
    opt = torch.optim.Adam(ac.parameters(), lr=3e-3)
    for update in range(5):
        obs_l, act_l, logp_l, rew_l, done_l = [], [], [], [], []
        obs = env.reset()
        for _ in range(64):
            obs_t = torch.as_tensor(obs, dtype=torch.float32)  # expect: DEV006
            with torch.no_grad():
                logits, _ = ac(obs_t)
                dist = Categorical(logits=logits)
                action = dist.sample()
            next_obs, reward, done = env.step(action.numpy())  # expect: DEV011
            obs_l.append(obs_t), act_l.append(action), logp_l.append(dist.log_prob(action))
            rew_l.append(reward), done_l.append(done)
            obs = env.reset() if done else next_obs
        returns, ret = [], 0.0
        for r, d in zip(reversed(rew_l), reversed(done_l)):
            ret = r + gamma * ret * (not d)
            returns.insert(0, ret)
        obs_b, act_b, old_logp = torch.stack(obs_l), torch.stack(act_l), torch.stack(logp_l)
        ret_b = torch.tensor(returns, device=device)
        for _ in range(4):
            logits, values = ac(obs_b)
            new_logp = Categorical(logits=logits).log_prob(act_b)
            adv = (ret_b - values).detach()
            ratio = (new_logp - old_logp).exp()
            pg = -torch.min(ratio * adv, ratio.clamp(1 - clip, 1 + clip) * adv).mean()
            loss = pg + 0.5 * (ret_b - values).pow(2).mean()
            opt.zero_grad()
            loss.backward()
            opt.step()
        print(f"update {update}: return {sum(rew_l):.2f}")


if __name__ == "__main__":
    main()
