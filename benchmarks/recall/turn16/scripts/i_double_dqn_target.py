"""Double DQN agent with checkpointing.

    python i_double_dqn_target.py --steps 400 --save ckpt.pt
    python i_double_dqn_target.py --steps 400 --resume ckpt.pt
"""
import argparse
import copy
import os
import random
import tempfile

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


class ChainEnv:
    """N-chain: moving right pays off at the end, moving left gives a small reward."""

    def __init__(self, n=6, horizon=30):
        self.n = n
        self.horizon = horizon
        self.obs_dim = n
        self.n_actions = 2

    def reset(self):
        self.s, self.t = 0, 0
        return np.eye(self.n, dtype=np.float32)[self.s]

    def step(self, a):
        self.t += 1
        if a == 1:
            self.s = min(self.s + 1, self.n - 1)
            r = 1.0 if self.s == self.n - 1 else 0.0
        else:
            self.s = 0
            r = 0.05
        return np.eye(self.n, dtype=np.float32)[self.s], r, self.t >= self.horizon


class QNet(nn.Module):
    def __init__(self, obs_dim, n_actions):
        super().__init__()
        self.fc1 = nn.Linear(obs_dim, 64)
        self.fc2 = nn.Linear(64, n_actions)

    def forward(self, x):
        return self.fc2(F.relu(self.fc1(x)))


class DoubleDQNAgent:
    def __init__(self, obs_dim, n_actions, lr=5e-4, gamma=0.97, tau=0.01):
        self.n_actions = n_actions
        self.gamma = gamma
        self.tau = tau
        self.device = torch.device("cpu")
        self.online = QNet(obs_dim, n_actions)
        self.target = copy.deepcopy(self.online)  # expect: DEV016
        self.target.requires_grad_(False)
        self.optimizer = torch.optim.Adam(self.online.parameters(), lr=lr)

    def to(self, device):
        self.device = device
        self.online.to(device)
        return self

    def act(self, obs, epsilon):
        if random.random() < epsilon:
            return random.randrange(self.n_actions)
        with torch.no_grad():
            q = self.online(torch.as_tensor(obs, device=self.device).unsqueeze(0))
        return int(q.argmax(1).item())

    def learn(self, obs, actions, rewards, next_obs, dones):
        q = self.online(obs).gather(1, actions[:, None]).squeeze(1)
        with torch.no_grad():
            best = self.online(next_obs).argmax(1, keepdim=True)
            next_q = self.target(next_obs).gather(1, best).squeeze(1)
            y = rewards + self.gamma * (1 - dones) * next_q
        loss = F.mse_loss(q, y)
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        with torch.no_grad():
            for tp, op in zip(self.target.parameters(), self.online.parameters()):
                tp.lerp_(op, self.tau)
        return loss.item()

    def state_dict(self):
        return {
            "online": self.online.state_dict(),
            "target": self.target.state_dict(),
            "optimizer": self.optimizer.state_dict(),
        }


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--steps", type=int, default=400)
    p.add_argument("--batch-size", type=int, default=32)
    p.add_argument("--resume", default="")
    p.add_argument("--save", default=os.path.join(tempfile.gettempdir(), "i_ddqn_ckpt.pt"))
    args = p.parse_args()

    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    env = ChainEnv()
    agent = DoubleDQNAgent(env.obs_dim, env.n_actions)
    start_step = 0
    if args.resume:
        ckpt = torch.load(args.resume)  # expect: DEV008
        agent.online.load_state_dict(ckpt["online"])
        agent.target.load_state_dict(ckpt["target"])
        agent.optimizer.load_state_dict(ckpt["optimizer"])  # expect: DEV017
        start_step = ckpt["step"]
        print(f"resumed from {args.resume} at step {start_step}")
    agent.to(device)

    obs_buf, act_buf, rew_buf, next_buf, done_buf = [], [], [], [], []
    obs = env.reset()
    for step in range(start_step, start_step + args.steps):
        eps = max(0.1, 1.0 - step / 300)
        a = agent.act(obs, eps)
        next_obs, r, done = env.step(a)
        obs_buf.append(obs); act_buf.append(a); rew_buf.append(r)
        next_buf.append(next_obs); done_buf.append(float(done))
        obs = env.reset() if done else next_obs
        if len(obs_buf) >= args.batch_size:
            idx = np.random.randint(0, len(obs_buf), args.batch_size)
            batch = (
                torch.as_tensor(np.stack([obs_buf[i] for i in idx]), device=device),
                torch.as_tensor([act_buf[i] for i in idx], device=device),
                torch.as_tensor([rew_buf[i] for i in idx], dtype=torch.float32, device=device),
                torch.as_tensor(np.stack([next_buf[i] for i in idx]), device=device),
                torch.as_tensor([done_buf[i] for i in idx], dtype=torch.float32, device=device),
            )
            loss = agent.learn(*batch)
            if step % 100 == 0:
                print(f"step {step}  loss {loss:.4f}")

    state = agent.state_dict()
    state["step"] = start_step + args.steps
    torch.save(state, args.save)
    print("saved", args.save)


if __name__ == "__main__":
    main()
