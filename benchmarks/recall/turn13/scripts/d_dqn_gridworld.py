"""DQN on a tiny NumPy grid world with experience replay and a periodically synced target net.

From DQN tutorial threads ("cuda tensor instead of int in 1.dqn", the q-learning tutorial's
"fixing q-learning cuda problems", "Input type (torch.FloatTensor) and weight type
(torch.cuda.FloatTensor) should be the same" in `select_action`): the state tensor's `.to(device)`
result thrown away, and the network moved again at the top of every episode.
"""
import copy
import random
from collections import deque

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


class GridWorld:
    def __init__(self, size=5):
        self.size = size

    def reset(self):
        self.pos = [0, 0]
        self.t = 0
        return self._obs()

    def _obs(self):
        o = np.zeros((self.size, self.size), dtype=np.float32)
        o[self.pos[0], self.pos[1]] = 1.0
        return o.ravel()

    def step(self, action):
        dr, dc = [(-1, 0), (1, 0), (0, -1), (0, 1)][action]
        self.pos = [min(max(self.pos[0] + dr, 0), self.size - 1),
                    min(max(self.pos[1] + dc, 0), self.size - 1)]
        self.t += 1
        goal = self.pos == [self.size - 1, self.size - 1]
        return self._obs(), (1.0 if goal else -0.01), goal or self.t >= 30


class QNet(nn.Module):
    def __init__(self, n_in=25, n_actions=4):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(n_in, 64), nn.ReLU(), nn.Linear(64, n_actions))

    def forward(self, x):
        return self.net(x)


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    random.seed(0)
    torch.manual_seed(0)
    env = GridWorld()
    policy_net = QNet().to(device)
    target_net = copy.deepcopy(policy_net).eval()
    optimizer = torch.optim.Adam(policy_net.parameters(), lr=1e-3)
    memory = deque(maxlen=5000)
    eps, gamma, steps = 1.0, 0.95, 0

    for episode in range(60):
        policy_net.to(device)  # expect: DEV007
        obs, done, ep_return = env.reset(), False, 0.0
        while not done:
            state = torch.from_numpy(obs).unsqueeze(0)
            state.to(device)  # expect: DEV005
            if random.random() < eps:
                action = random.randrange(4)
            else:
                with torch.no_grad():
                    action = int(policy_net(state).argmax(dim=1).item())  # also: DEV002
            next_obs, reward, done = env.step(action)
            memory.append((obs, action, reward, next_obs, float(done)))
            obs, ep_return, steps = next_obs, ep_return + reward, steps + 1

            if len(memory) >= 64:
                batch = random.sample(memory, 64)
                s, a, r, s2, d = (np.array(x) for x in zip(*batch))
                s = torch.as_tensor(s, device=device)
                a = torch.as_tensor(a, dtype=torch.int64, device=device)
                r = torch.as_tensor(r, dtype=torch.float32, device=device)
                s2 = torch.as_tensor(s2, device=device)
                d = torch.as_tensor(d, dtype=torch.float32, device=device)
                q = policy_net(s).gather(1, a.unsqueeze(1)).squeeze(1)
                with torch.no_grad():
                    target = r + gamma * (1 - d) * target_net(s2).max(1).values
                loss = F.smooth_l1_loss(q, target)
                optimizer.zero_grad()
                loss.backward()
                optimizer.step()
            if steps % 100 == 0:
                target_net.load_state_dict(policy_net.state_dict())
        eps = max(0.05, eps * 0.93)
        if episode % 10 == 0:
            print(f"episode {episode}: return {ep_return:.2f} eps {eps:.2f}")


if __name__ == "__main__":
    main()
