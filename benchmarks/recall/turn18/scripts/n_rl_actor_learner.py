"""Single-process actor/learner split for REINFORCE with a baseline.
The actor copy acts in the env while the learner trains."""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.distributions import Categorical

if torch.cuda.is_available():
    LEARNER_DEVICE = torch.device("cuda:0")
    ACTOR_DEVICE = torch.device("cuda:1")  # expect: DEV018
else:
    LEARNER_DEVICE = ACTOR_DEVICE = torch.device("cpu")


class Bandit:
    def __init__(self, n_arms=4, obs_dim=6, seed=0):
        self.rng = np.random.default_rng(seed)
        self.w = self.rng.normal(size=(obs_dim, n_arms))
        self.obs_dim = obs_dim

    def reset(self):
        self.obs = self.rng.normal(size=self.obs_dim).astype(np.float32)
        return self.obs

    def step(self, a):
        r = float((self.obs @ self.w).argmax() == a)
        return self.reset(), r


class PolicyNet(nn.Module):
    def __init__(self, obs_dim=6, n_actions=4):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(obs_dim, 64), nn.Tanh())
        self.pi = nn.Linear(64, n_actions)
        self.v = nn.Linear(64, 1)

    def forward(self, x):
        h = self.body(x)
        return self.pi(h), self.v(h).squeeze(-1)


def rollout(actor, env, n_steps):
    obs_buf, act_buf, rew_buf = [], [], []
    obs = env.reset()
    with torch.no_grad():
        for _ in range(n_steps):
            logits, _ = actor(torch.as_tensor(obs, device=ACTOR_DEVICE).unsqueeze(0))
            a = Categorical(logits=logits).sample().item()
            next_obs, r = env.step(a)
            obs_buf.append(obs)
            act_buf.append(a)
            rew_buf.append(r)
            obs = next_obs
    return np.stack(obs_buf), np.array(act_buf), np.array(rew_buf, dtype=np.float32)


def main():
    env = Bandit()
    learner = PolicyNet().to(LEARNER_DEVICE)
    actor = PolicyNet().to(ACTOR_DEVICE)
    opt = torch.optim.Adam(learner.parameters(), lr=1e-2)

    for it in range(30):
        actor.load_state_dict(learner.state_dict())
        actor.to(ACTOR_DEVICE)  # expect: DEV007
        obs, acts, rews = rollout(actor, env, 64)

        obs_t = torch.from_numpy(obs).to(LEARNER_DEVICE)
        acts_t = torch.from_numpy(acts).to(LEARNER_DEVICE)
        rews_t = torch.from_numpy(rews).to(LEARNER_DEVICE)
        logits, values = learner(obs_t)
        logp = F.log_softmax(logits, -1).gather(1, acts_t.unsqueeze(1)).squeeze(1)
        adv = rews_t - values.detach()
        loss = -(logp * adv).mean() + 0.5 * F.mse_loss(values, rews_t)
        opt.zero_grad()
        loss.backward()
        opt.step()
        if it % 10 == 0:
            print(f"iter {it} mean reward {rews.mean():.3f}")


if __name__ == "__main__":
    main()
