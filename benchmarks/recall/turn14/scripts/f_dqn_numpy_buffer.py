"""DQN on a small line-walking environment.

The env hands back numpy observations (gym style), the replay buffer keeps
plain numpy arrays and only turns them into tensors when a batch is sampled.

    python f_dqn_numpy_buffer.py --episodes 40
    python f_dqn_numpy_buffer.py --no-cuda
"""
import argparse
import random
from collections import deque

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


class LineWorld:
    """Walk left/right on a line of `n` cells, reward at the right end."""

    def __init__(self, n=8, max_steps=30, seed=0):
        self.n = n
        self.max_steps = max_steps
        self.rng = np.random.default_rng(seed)
        self.observation_size = n
        self.num_actions = 2

    def _obs(self):
        obs = np.zeros(self.n, dtype=np.float32)
        obs[self.pos] = 1.0
        return obs

    def reset(self):
        self.pos = int(self.rng.integers(0, self.n // 2))
        self.t = 0
        return self._obs()

    def step(self, action):
        self.pos = max(0, min(self.n - 1, self.pos + (1 if action == 1 else -1)))
        self.t += 1
        reached = self.pos == self.n - 1
        reward = 1.0 if reached else -0.01
        done = reached or self.t >= self.max_steps
        return self._obs(), reward, done, {}


class QNet(nn.Module):
    def __init__(self, obs_size, num_actions, hidden=64):
        super().__init__()
        self.fc1 = nn.Linear(obs_size, hidden)
        self.fc2 = nn.Linear(hidden, hidden)
        self.out = nn.Linear(hidden, num_actions)

    def forward(self, x):
        x = F.relu(self.fc1(x))
        x = F.relu(self.fc2(x))
        return self.out(x)


class ReplayBuffer:
    def __init__(self, capacity):
        self.memory = deque(maxlen=capacity)

    def push(self, state, action, reward, next_state, done):
        self.memory.append((state, action, reward, next_state, done))

    def sample(self, batch_size, device):
        batch = random.sample(self.memory, batch_size)
        states, actions, rewards, next_states, dones = zip(*batch)
        states = torch.from_numpy(np.stack(states)).to(device)
        next_states = torch.from_numpy(np.stack(next_states)).to(device)
        actions = torch.from_numpy(np.array(actions, dtype=np.int64)).unsqueeze(1)  # expect: DEV006
        rewards = torch.tensor(rewards, dtype=torch.float32, device=device)
        dones = torch.tensor(dones, dtype=torch.float32, device=device)
        return states, actions, rewards, next_states, dones

    def __len__(self):
        return len(self.memory)


def select_action(policy, state, epsilon, num_actions, device):
    if random.random() < epsilon:
        return random.randrange(num_actions)
    with torch.no_grad():
        q = policy(torch.from_numpy(state).unsqueeze(0).to(device))
    return int(q.argmax(dim=1).numpy()[0])  # expect: DEV011


def optimize(policy, target, buffer, optimizer, batch_size, gamma, device):
    states, actions, rewards, next_states, dones = buffer.sample(batch_size, device)
    q = policy(states).gather(1, actions).squeeze(1)
    with torch.no_grad():
        next_q = target(next_states).max(dim=1).values
        td_target = rewards + gamma * next_q * (1.0 - dones)
    loss = F.smooth_l1_loss(q, td_target)
    optimizer.zero_grad()
    loss.backward()
    nn.utils.clip_grad_norm_(policy.parameters(), 10.0)
    optimizer.step()
    return loss.item()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--episodes", type=int, default=40)
    parser.add_argument("--batch-size", type=int, default=32)
    parser.add_argument("--gamma", type=float, default=0.95)
    parser.add_argument("--lr", type=float, default=1e-3)
    parser.add_argument("--target-update", type=int, default=50)
    parser.add_argument("--no-cuda", action="store_true")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()

    random.seed(args.seed)
    torch.manual_seed(args.seed)
    use_cuda = torch.cuda.is_available() and not args.no_cuda
    device = torch.device("cuda" if use_cuda else "cpu")

    env = LineWorld(seed=args.seed)
    policy = QNet(env.observation_size, env.num_actions).to(device)
    target = QNet(env.observation_size, env.num_actions).to(device)
    target.load_state_dict(policy.state_dict())
    target.eval()
    optimizer = torch.optim.Adam(policy.parameters(), lr=args.lr)
    buffer = ReplayBuffer(5000)

    steps = 0
    for episode in range(args.episodes):
        state = env.reset()
        episode_return, done = 0.0, False
        while not done:
            epsilon = max(0.05, 1.0 - steps / 500)
            action = select_action(policy, state, epsilon, env.num_actions, device)
            next_state, reward, done, _ = env.step(action)
            buffer.push(state, action, reward, next_state, float(done))
            state = next_state
            episode_return += reward
            steps += 1
            if len(buffer) >= args.batch_size:
                optimize(policy, target, buffer, optimizer, args.batch_size, args.gamma, device)
            if steps % args.target_update == 0:
                target.load_state_dict(policy.state_dict())
        if episode % 10 == 0:
            print(f"episode {episode:3d}  return {episode_return:6.2f}  eps {epsilon:.2f}")


if __name__ == "__main__":
    main()
