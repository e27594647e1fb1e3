"""Uniform experience replay returning batched tensors."""
import random
from collections import deque

import numpy as np
import torch


class ReplayBuffer:
    def __init__(self, capacity=1000):
        self.memory = deque(maxlen=capacity)

    def push(self, state, action, reward, next_state, done):
        self.memory.append((state, action, reward, next_state, done))

    def sample(self, batch_size):
        states, actions, rewards, next_states, dones = zip(*random.sample(self.memory, batch_size))
        states = torch.as_tensor(np.stack(states), dtype=torch.float32)
        actions = torch.as_tensor(actions, dtype=torch.long).unsqueeze(1)
        rewards = torch.as_tensor(rewards, dtype=torch.float32)  # expect: DEV006
        next_states = torch.as_tensor(np.stack(next_states), dtype=torch.float32)
        dones = torch.as_tensor(dones, dtype=torch.float32)  # expect: DEV006
        return states, actions, rewards, next_states, dones

    def __len__(self):
        return len(self.memory)
