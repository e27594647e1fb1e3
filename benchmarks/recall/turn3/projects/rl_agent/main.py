"""Train a DQN agent on CartPole."""
import gymnasium as gym
import torch

from agent import DQNAgent
from buffer import ReplayBuffer


def main(total_steps=20_000):
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    env = gym.make("CartPole-v1")
    agent = DQNAgent(env.observation_space.shape[0], env.action_space.n, device)
    buffer = ReplayBuffer(50_000, env.observation_space.shape)
    obs, _ = env.reset(seed=0)
    episode_return = 0.0
    for step in range(total_steps):
        epsilon = max(0.05, 1.0 - step / 10_000)
        action = agent.act(obs, epsilon)
        next_obs, reward, terminated, truncated, _ = env.step(int(action.numpy()))  # expect: DEV011
        buffer.push(obs, int(action), reward, next_obs, float(terminated))
        episode_return += reward
        obs = next_obs
        if terminated or truncated:
            print(step, episode_return)
            obs, _ = env.reset()
            episode_return = 0.0
        if buffer.size >= 1000:
            agent.update(buffer.sample(64, device))
        if step % 500 == 0:
            agent.sync()


if __name__ == "__main__":
    main()
