"""DQN acting step: the observation tensor is moved with a bare .to()."""
import random

import numpy as np
import torch
import torch.nn as nn


class QNet(nn.Module):
    def __init__(self, obs_dim=4, n_actions=2):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(obs_dim, 128), nn.ReLU(), nn.Linear(128, n_actions))

    def forward(self, x):
        return self.net(x)


class Agent:
    def __init__(self, device):
        self.device = device
        self.q = QNet().to(device)
        self.epsilon = 0.1

    def act(self, obs):
        if random.random() < self.epsilon:
            return random.randrange(2)
        state = torch.tensor(obs, dtype=torch.float32).unsqueeze(0)  # also: DEV006
        state.to(self.device)  # expect: DEV005
        with torch.no_grad():
            q_values = self.q(state)  # also: DEV002, DEV006
        return int(q_values.argmax(dim=1).item())


if __name__ == "__main__":
    agent = Agent(torch.device("cuda" if torch.cuda.is_available() else "cpu"))
    obs = np.zeros(4, dtype=np.float32)
    actions = [agent.act(obs + np.random.randn(4).astype(np.float32)) for _ in range(20)]
    print(actions)
