# one-step actor-critic on a tiny point-mass env
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")


class PointEnv:
    def reset(self):
        self.x = np.random.uniform(-1, 1, size=2).astype(np.float32)
        return self.x.copy()

    def step(self, a):
        moves = np.array([[0.1, 0], [-0.1, 0], [0, 0.1], [0, -0.1]], dtype=np.float32)
        self.x = self.x + moves[a]
        dist = float(np.linalg.norm(self.x))
        return self.x.copy(), -dist, dist < 0.1


class ActorCritic(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(2, 64), nn.Tanh())
        self.pi = nn.Linear(64, 4)
        self.v = nn.Linear(64, 1)

    def forward(self, s):
        h = self.body(s)
        return self.pi(h), self.v(h).squeeze(-1)


policy = ActorCritic()
optimizer = torch.optim.Adam(policy.parameters(), lr=3e-3)
gamma = 0.99
env = PointEnv()

for episode in range(30):
    policy.to(device)  # expect: DEV007
    state = env.reset()
    ep_ret = 0.0
    for t in range(50):
        s = torch.from_numpy(state).float()  # also: DEV006
        s.to(device)  # expect: DEV005
        logits, value = policy(s)
        dist = torch.distributions.Categorical(logits=logits)
        action = dist.sample()
        next_state, reward, done = env.step(action.item())
        with torch.no_grad():
            _, next_value = policy(torch.as_tensor(next_state, device=device))
        target = reward + gamma * next_value * (1.0 - float(done))
        advantage = target - value
        loss = -dist.log_prob(action) * advantage.detach() + advantage.pow(2)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        state = next_state
        ep_ret += reward
        if done:
            break
    print(episode, round(ep_ret, 2))
