"""Train a DQN agent on the chain environment."""
import random

import numpy as np
import torch

from agent import DQNAgent
from env import ChainEnv
from logger import log_q_stats
from replay import ReplayBuffer


def main():
    random.seed(0)
    np.random.seed(0)
    torch.manual_seed(0)
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    env = ChainEnv()
    agent = DQNAgent(env.n_states, env.n_actions, device)
    buffer = ReplayBuffer()
    step, epsilon = 0, 1.0

    for episode in range(15):
        state, done, ret = env.reset(), False, 0.0
        while not done:
            action = agent.act(state, epsilon)
            next_state, reward, done = env.step(action)
            buffer.push(state, action, reward, next_state, done)
            state, ret, step = next_state, ret + reward, step + 1
            if len(buffer) >= 32:
                loss, q_values = agent.learn(buffer.sample(32))
                if step % 25 == 0:
                    log_q_stats(step, loss, q_values)
            if step % 50 == 0:
                agent.sync_target()
        epsilon = max(0.05, epsilon * 0.8)
        print(f"episode {episode}: return {ret:.2f}")


if __name__ == "__main__":
    main()
