"""DQN on a toy chain environment with an experience-replay buffer and a target network."""
import random
from collections import deque, namedtuple

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

Transition = namedtuple("Transition", ("state", "action", "next_state", "reward"))
N_STATES, N_ACTIONS, GAMMA, BATCH_SIZE = 6, 2, 0.99, 8


class ChainEnv:
    def reset(self):
        self.pos = 0
        return self._obs()

    def _obs(self):
        return np.eye(N_STATES, dtype=np.float32)[self.pos]

    def step(self, action):
        self.pos = min(self.pos + 1, N_STATES - 1) if action == 1 else max(self.pos - 1, 0)
        return self._obs(), float(self.pos == N_STATES - 1), self.pos == N_STATES - 1


device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
policy_net = nn.Sequential(nn.Linear(N_STATES, 32), nn.ReLU(), nn.Linear(32, N_ACTIONS)).to(device)
target_net = nn.Sequential(nn.Linear(N_STATES, 32), nn.ReLU(), nn.Linear(32, N_ACTIONS)).to(device)
target_net.load_state_dict(policy_net.state_dict())
optimizer = torch.optim.AdamW(policy_net.parameters(), lr=1e-3, amsgrad=True)
memory = deque(maxlen=1000)
env = ChainEnv()


def optimize_model():
    if len(memory) < BATCH_SIZE:
        return None
    batch = Transition(*zip(*random.sample(memory, BATCH_SIZE)))
    state_batch = torch.tensor(np.array(batch.state), dtype=torch.float32)  # expect: DEV006
    next_batch = torch.tensor(np.array(batch.next_state), dtype=torch.float32, device=device)
    action_batch = torch.tensor(batch.action, device=device).unsqueeze(1)
    q_values = policy_net(state_batch).gather(1, action_batch).squeeze(1)
    with torch.no_grad():
        next_q = target_net(next_batch).max(1).values
    expected = torch.tensor(batch.reward) + GAMMA * next_q  # expect: DEV006
    loss = F.smooth_l1_loss(q_values, expected)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    return loss.item()


for episode in range(3):
    state, done, steps = env.reset(), False, 0
    while not done and steps < 20:
        if random.random() < 0.3:
            action = random.randrange(N_ACTIONS)
        else:
            with torch.no_grad():
                action = policy_net(torch.from_numpy(state).to(device)).argmax().item()
        next_state, reward, done = env.step(action)
        memory.append(Transition(state, action, next_state, reward))
        state, steps = next_state, steps + 1
        loss = optimize_model()
    target_net.load_state_dict(policy_net.state_dict())
    print(f"episode {episode} steps {steps} last loss {loss}")
