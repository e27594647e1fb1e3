"""PPO with GAE on a vectorised toy bandit-walk env (numpy observations)."""
import numpy as np
import torch
import torch.nn as nn
from torch.distributions import Categorical


class VecWalk:
    def __init__(self, n_envs=4):
        self.n = n_envs

    def reset(self):
        self.pos = np.zeros(self.n, dtype=np.float32)
        return self.pos[:, None].copy()

    def step(self, actions):
        self.pos += np.where(actions == 1, 0.1, -0.1).astype(np.float32)
        rew = -np.abs(self.pos - 1.0)
        done = np.abs(self.pos) > 2
        self.pos[done] = 0.0
        return self.pos[:, None].copy(), rew.astype(np.float32), done


class Agent(nn.Module):
    def __init__(self):
        super().__init__()
        self.actor = nn.Sequential(nn.Linear(1, 32), nn.Tanh(), nn.Linear(32, 2))
        self.critic = nn.Sequential(nn.Linear(1, 32), nn.Tanh(), nn.Linear(32, 1))

    def act(self, obs):
        dist = Categorical(logits=self.actor(obs))
        a = dist.sample()
        return a, dist.log_prob(a), self.critic(obs).squeeze(-1)


def compute_gae(rewards, values, dones, last_value, gamma=0.99, lam=0.95):
    T = rewards.size(0)
    adv = torch.zeros_like(rewards)
    last = torch.zeros_like(last_value)
    for t in reversed(range(T)):
        nv = last_value if t == T - 1 else values[t + 1]
        nonterm = 1.0 - dones[t]
        delta = rewards[t] + gamma * nv * nonterm - values[t]
        last = delta + gamma * lam * nonterm * last
        adv[t] = last
    return adv, adv + values


device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
env = VecWalk()
agent = Agent().to(device)
opt = torch.optim.Adam(agent.parameters(), lr=2.5e-4, eps=1e-5)
T, n_envs, clip = 16, 4, 0.2
ent_coef = torch.tensor(0.01)
lr_schedule = torch.linspace(1.0, 0.1, 5)
vf_schedule = torch.linspace(0.5, 0.25, 5)

obs = torch.as_tensor(env.reset(), device=device)
for update in range(5):
    for g in opt.param_groups:
        g["lr"] = 2.5e-4 * lr_schedule[update].item()
    buf_obs = torch.zeros(T, n_envs, 1, device=device)
    buf_act = torch.zeros(T, n_envs, dtype=torch.long, device=device)
    buf_logp = torch.zeros(T, n_envs, device=device)
    buf_val = torch.zeros(T, n_envs, device=device)
    buf_rew = torch.zeros(T, n_envs, device=device)
    buf_done = torch.zeros(T, n_envs, device=device)
    for t in range(T):
        with torch.no_grad():
            a, logp, v = agent.act(obs)
        next_obs, r, d = env.step(a.cpu().numpy())
        buf_obs[t], buf_act[t], buf_logp[t], buf_val[t] = obs, a, logp, v
        buf_rew[t] = torch.from_numpy(r).to(device)
        buf_done[t] = torch.as_tensor(d, dtype=torch.float32, device=device)
        obs = torch.as_tensor(next_obs, device=device)
    with torch.no_grad():
        last_v = agent.critic(obs).squeeze(-1)
    adv, ret = compute_gae(buf_rew, buf_val, buf_done, last_v)
    b_obs, b_act, b_logp = buf_obs.reshape(-1, 1), buf_act.reshape(-1), buf_logp.reshape(-1)
    b_adv, b_ret = adv.reshape(-1), ret.reshape(-1)
    b_adv = (b_adv - b_adv.mean()) / (b_adv.std() + 1e-8)
    for epoch in range(4):
        dist = Categorical(logits=agent.actor(b_obs))
        ratio = (dist.log_prob(b_act) - b_logp).exp()
        pg = -torch.min(ratio * b_adv, ratio.clamp(1 - clip, 1 + clip) * b_adv).mean()
        v_loss = 0.5 * (agent.critic(b_obs).squeeze(-1) - b_ret).pow(2).mean()
        loss = pg + vf_schedule[update] * v_loss - ent_coef * dist.entropy().mean()
        opt.zero_grad()
        loss.backward()
        nn.utils.clip_grad_norm_(agent.parameters(), 0.5)
        opt.step()
    print(update, round(loss.item(), 4))
