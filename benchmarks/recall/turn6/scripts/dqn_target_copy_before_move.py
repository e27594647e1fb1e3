"""DQN agent class: the target network is a deep copy of the online network taken in the
constructor; the agent is placed on the device by a separate to() method."""
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F


class Agent:
    def __init__(self, obs_dim, n_actions, gamma=0.99):
        self.online = nn.Sequential(nn.Linear(obs_dim, 64), nn.ReLU(), nn.Linear(64, n_actions))
        self.target = copy.deepcopy(self.online)  # expect: DEV016
        self.gamma = gamma
        self.device = torch.device("cpu")

    def to(self, device):
        self.online.to(device)
        self.device = device
        return self

    def loss(self, o, a, r, o2, d):
        q = self.online(o).gather(1, a[:, None]).squeeze(1)
        with torch.no_grad():
            tgt = r + self.gamma * (1 - d) * self.target(o2).max(1).values
        return F.smooth_l1_loss(q, tgt)


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    agent = Agent(6, 3).to(device)
    opt = torch.optim.Adam(agent.online.parameters(), lr=1e-3)
    for step in range(50):
        o = torch.randn(32, 6, device=device)
        a = torch.randint(0, 3, (32,), device=device)
        r = torch.randn(32, device=device)
        o2 = torch.randn(32, 6, device=device)
        d = torch.zeros(32, device=device)
        loss = agent.loss(o, a, r, o2, d)
        opt.zero_grad()
        loss.backward()
        opt.step()
        if step % 10 == 0:
            agent.target.load_state_dict(agent.online.state_dict())
    print(loss.item())


if __name__ == "__main__":
    main()
