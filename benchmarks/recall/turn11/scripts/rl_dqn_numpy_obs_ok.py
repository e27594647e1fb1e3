"""Look-alike of rl_ppo_obs_as_tensor.py: DQN on the same kind of NumPy corridor, with the
observations converted straight onto the device, actions handed back to the environment as
Python ints, replay batches built with device=, and the target network copied after the move.

Thread: https://github.com/ray-project/ray/issues/9437 (the fix: convert observations with the
policy's device).
"""
import copy
import random

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


class Corridor:
    def __init__(self, n=9):
        self.n = n

    def reset(self):
        self.pos = self.n // 2
        return np.eye(self.n, dtype=np.float32)[self.pos]

    def step(self, action):
        self.pos = min(max(self.pos + (1 if action == 1 else -1), 0), self.n - 1)
        done = self.pos in (0, self.n - 1)
        reward = 1.0 if self.pos == self.n - 1 else -0.01
        return np.eye(self.n, dtype=np.float32)[self.pos], reward, done


def main(gamma=0.95, eps=0.2):
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    env = Corridor()
    qnet = nn.Sequential(nn.Linear(9, 32), nn.ReLU(), nn.Linear(32, 2)).to(device)
    target = copy.deepcopy(qnet)
    opt = torch.optim.Adam(qnet.parameters(), lr=1e-3)
    replay, obs = [], env.reset()
    for step in range(600):
        if random.random() < eps:
            action = random.randrange(2)
        else:
            with torch.no_grad():
                q = qnet(torch.as_tensor(obs, device=device))
            action = q.argmax().item()
        next_obs, reward, done = env.step(action)
        replay.append((obs, action, reward, next_obs, done))
        obs = env.reset() if done else next_obs
        if len(replay) >= 64:
            batch = random.sample(replay, 32)
            o, a, r, o2, d = (np.array(col) for col in zip(*batch))
            o, o2 = torch.as_tensor(o, device=device), torch.as_tensor(o2, device=device)
            a = torch.as_tensor(a, device=device).unsqueeze(1)
            r = torch.as_tensor(r, dtype=torch.float32, device=device)
            d = torch.as_tensor(d, dtype=torch.float32, device=device)
            with torch.no_grad():
                y = r + gamma * (1 - d) * target(o2).max(1).values
            loss = F.smooth_l1_loss(qnet(o).gather(1, a).squeeze(1), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
        if step % 100 == 0:
            target.load_state_dict(qnet.state_dict())
            print(f"step {step}: replay {len(replay)}")
    with torch.no_grad():
        values = qnet(torch.eye(9, device=device)).max(1).values.cpu().numpy()
    print("state values:", np.round(values, 2))


if __name__ == "__main__":
    main()
