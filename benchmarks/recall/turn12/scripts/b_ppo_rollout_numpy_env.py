"""PPO rollout collection against a numpy vectorised toy environment.

Written from threads like "TypeError: can't assign a numpy.ndarray to a
torch.cuda.FloatTensor" (vwxyzjn/cleanrl#26), "Look for cuda tensors in step"
(ikostrikov/pytorch-a2c-ppo-acktr-gail#209) and the accelerate question where
`t.to(batch.device)` was left unassigned (huggingface/accelerate#2251): the
first observation is "moved" without keeping the result, and sampled actions
go straight from the GPU to the numpy environment.
"""
import numpy as np
import torch
import torch.nn as nn
from torch.distributions import Categorical


class VecTarget:
    """N independent 1-d walkers that try to reach a random target."""

    def __init__(self, num_envs=4, seed=0):
        self.n, self.rng = num_envs, np.random.default_rng(seed)

    def reset(self):
        self.pos = self.rng.uniform(-1, 1, self.n)
        self.goal = self.rng.uniform(-1, 1, self.n)
        self.t = np.zeros(self.n)
        return self._obs()

    def _obs(self):
        return np.stack([self.pos, self.goal, self.goal - self.pos, self.t / 20], axis=1).astype(np.float32)

    def step(self, actions):
        actions = np.asarray(actions)
        self.pos = self.pos + (actions - 1) * 0.1
        self.t += 1
        dist = np.abs(self.goal - self.pos)
        done = (dist < 0.05) | (self.t >= 20)
        reward = np.where(dist < 0.05, 1.0, -0.01 * dist).astype(np.float32)
        if done.any():
            self.pos[done] = self.rng.uniform(-1, 1, done.sum())
            self.goal[done] = self.rng.uniform(-1, 1, done.sum())
            self.t[done] = 0
        return self._obs(), reward, done


class Agent(nn.Module):
    def __init__(self, obs_dim, n_actions):
        super().__init__()
        self.critic = nn.Sequential(nn.Linear(obs_dim, 64), nn.Tanh(), nn.Linear(64, 1))
        self.actor = nn.Sequential(nn.Linear(obs_dim, 64), nn.Tanh(), nn.Linear(64, n_actions))

    def get_value(self, x):
        return self.critic(x).squeeze(-1)

    def get_action_and_value(self, x, action=None):
        dist = Categorical(logits=self.actor(x))
        if action is None:
            action = dist.sample()
        return action, dist.log_prob(action), dist.entropy(), self.get_value(x)


def main(num_envs=4, num_steps=32, updates=10, gamma=0.99, lam=0.95, clip=0.2):
    torch.manual_seed(0)
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    envs = VecTarget(num_envs)
    agent = Agent(4, 3).to(device)
    optimizer = torch.optim.Adam(agent.parameters(), lr=3e-4, eps=1e-5)

    obs_buf = torch.zeros((num_steps, num_envs, 4), device=device)
    act_buf = torch.zeros((num_steps, num_envs), dtype=torch.long, device=device)
    logp_buf, rew_buf, done_buf, val_buf = (torch.zeros((num_steps, num_envs), device=device) for _ in range(4))

    next_obs = torch.tensor(envs.reset(), dtype=torch.float32)
    next_obs.to(device)  # expect: DEV005
    next_done = torch.zeros(num_envs, device=device)
    for update in range(updates):
        for step in range(num_steps):
            obs_buf[step] = next_obs
            done_buf[step] = next_done
            with torch.no_grad():
                action, logp, _, value = agent.get_action_and_value(next_obs)  # also: DEV002
            act_buf[step], logp_buf[step], val_buf[step] = action, logp, value
            obs_np, reward, done = envs.step(action.numpy())  # expect: DEV011
            rew_buf[step] = torch.as_tensor(reward, device=device)
            next_obs = torch.as_tensor(obs_np, device=device)
            next_done = torch.as_tensor(done, dtype=torch.float32, device=device)

        with torch.no_grad():
            next_value = agent.get_value(next_obs)
            adv = torch.zeros_like(rew_buf)
            last = torch.zeros(num_envs, device=device)
            for t in reversed(range(num_steps)):
                nonterminal = 1.0 - (next_done if t == num_steps - 1 else done_buf[t + 1])
                nv = next_value if t == num_steps - 1 else val_buf[t + 1]
                delta = rew_buf[t] + gamma * nv * nonterminal - val_buf[t]
                last = delta + gamma * lam * nonterminal * last
                adv[t] = last
            returns = adv + val_buf

        b_obs, b_act = obs_buf.reshape(-1, 4), act_buf.reshape(-1)
        b_logp, b_adv, b_ret = logp_buf.reshape(-1), adv.reshape(-1), returns.reshape(-1)
        inds = np.arange(num_steps * num_envs)
        for _ in range(4):
            np.random.shuffle(inds)
            for start in range(0, len(inds), 32):
                mb = inds[start:start + 32]
                _, new_logp, entropy, new_v = agent.get_action_and_value(b_obs[mb], b_act[mb])
                ratio = (new_logp - b_logp[mb]).exp()
                mb_adv = (b_adv[mb] - b_adv[mb].mean()) / (b_adv[mb].std() + 1e-8)
                pg_loss = torch.max(-mb_adv * ratio, -mb_adv * ratio.clamp(1 - clip, 1 + clip)).mean()
                loss = pg_loss + 0.5 * (new_v - b_ret[mb]).pow(2).mean() - 0.01 * entropy.mean()
                optimizer.zero_grad()
                loss.backward()
                nn.utils.clip_grad_norm_(agent.parameters(), 0.5)
                optimizer.step()
        print(f"update {update}: mean reward {rew_buf.mean().item():.4f}")


if __name__ == "__main__":
    main()
