"""PPO rollouts: numpy actions via .cpu(), every new observation moved to the device."""
import argparse

import numpy as np
import torch
import torch.nn as nn
from torch.distributions import Categorical


class VecToyEnv:
    def __init__(self, n_envs=4, obs_dim=6, n_actions=3, seed=0):
        self.rng = np.random.default_rng(seed)
        self.n_envs, self.obs_dim, self.n_actions = n_envs, obs_dim, n_actions
        self.t = np.zeros(n_envs, dtype=np.int64)

    def reset(self):
        self.t[:] = 0
        return self.rng.standard_normal((self.n_envs, self.obs_dim)).astype(np.float32)

    def step(self, actions):
        self.t += 1
        obs = self.rng.standard_normal((self.n_envs, self.obs_dim)).astype(np.float32)
        rewards = (actions == (obs[:, 0] > 0).astype(np.int64)).astype(np.float32)
        dones = self.t >= 16
        self.t[dones] = 0
        return obs, rewards, dones.astype(np.float32)


class ActorCritic(nn.Module):
    def __init__(self, obs_dim, n_actions, hidden=64):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(obs_dim, hidden), nn.Tanh())
        self.pi = nn.Linear(hidden, n_actions)
        self.v = nn.Linear(hidden, 1)

    def forward(self, obs):
        h = self.body(obs)
        return self.pi(h), self.v(h).squeeze(-1)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--updates", type=int, default=5)
    ap.add_argument("--rollout", type=int, default=32)
    ap.add_argument("--gamma", type=float, default=0.99)
    ap.add_argument("--lam", type=float, default=0.95)
    ap.add_argument("--clip", type=float, default=0.2)
    args = ap.parse_args()

    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    envs = VecToyEnv()
    agent = ActorCritic(envs.obs_dim, envs.n_actions).to(device)
    opt = torch.optim.Adam(agent.parameters(), lr=3e-4)

    T, N = args.rollout, envs.n_envs
    obs_buf = torch.zeros(T, N, envs.obs_dim, device=device)
    act_buf = torch.zeros(T, N, dtype=torch.long, device=device)
    logp_buf = torch.zeros(T, N, device=device)
    rew_buf = torch.zeros(T, N, device=device)
    done_buf = torch.zeros(T, N, device=device)
    val_buf = torch.zeros(T, N, device=device)

    obs = torch.from_numpy(envs.reset()).to(device)
    for update in range(args.updates):
        for t in range(T):
            with torch.no_grad():
                logits, value = agent(obs)
            dist = Categorical(logits=logits)
            action = dist.sample()
            next_obs, reward, done = envs.step(action.cpu().numpy())
            obs_buf[t], act_buf[t], logp_buf[t], val_buf[t] = obs, action, dist.log_prob(action), value
            rew_buf[t] = torch.as_tensor(reward, device=device)
            done_buf[t] = torch.as_tensor(done, device=device)
            obs = torch.from_numpy(next_obs).to(device, non_blocking=True)

        with torch.no_grad():
            _, last_value = agent(obs)
        adv = torch.zeros(T, N, device=device)
        gae = torch.zeros(N, device=device)
        for t in reversed(range(T)):
            next_v = last_value if t == T - 1 else val_buf[t + 1]
            delta = rew_buf[t] + args.gamma * next_v * (1 - done_buf[t]) - val_buf[t]
            gae = delta + args.gamma * args.lam * (1 - done_buf[t]) * gae
            adv[t] = gae
        returns = adv + val_buf

        b_obs, b_act = obs_buf.reshape(T * N, -1), act_buf.reshape(-1)
        b_logp, b_adv, b_ret = logp_buf.reshape(-1), adv.reshape(-1), returns.reshape(-1)
        b_adv = (b_adv - b_adv.mean()) / (b_adv.std() + 1e-8)
        for _ in range(4):
            logits, v = agent(b_obs)
            dist = Categorical(logits=logits)
            ratio = (dist.log_prob(b_act) - b_logp).exp()
            pg = -torch.min(ratio * b_adv, ratio.clamp(1 - args.clip, 1 + args.clip) * b_adv).mean()
            loss = pg + 0.5 * (v - b_ret).pow(2).mean() - 0.01 * dist.entropy().mean()
            opt.zero_grad()
            loss.backward()
            opt.step()
        print(f"update {update} mean reward {rew_buf.mean().item():.3f}")


if __name__ == "__main__":
    main()
