import numpy as np
import torch


def evaluate(agent, env, episodes=5):
    """Greedy rollouts; returns mean return and the mean max-Q seen along the way."""
    returns, max_q = [], []
    for _ in range(episodes):
        obs, done, total = env.reset(), False, 0.0
        while not done:
            with torch.no_grad():
                q = agent.online(torch.as_tensor(obs, device=agent.device).unsqueeze(0))
            max_q.append(q.max(1).values.numpy())  # expect: DEV011
            obs, r, done = env.step(int(q.argmax(1).item()))
            total += r
        returns.append(total)
    return float(np.mean(returns)), float(np.concatenate(max_q).mean())
