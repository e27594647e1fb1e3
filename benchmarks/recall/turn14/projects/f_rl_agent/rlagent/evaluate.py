import numpy as np
import torch


@torch.no_grad()
def evaluate(agent, env, episodes=5, bins=10):
    """Greedy rollouts; returns mean return and a histogram of the Q-values seen."""
    returns, q_seen = [], []
    for _ in range(episodes):
        obs, done, total = env.reset(), False, 0.0
        while not done:
            q = agent.q(torch.as_tensor(obs, device=agent.device).unsqueeze(0)).squeeze(0)
            q_seen.append(q)
            obs, reward, done = env.step(int(q.argmax()))
            total += reward
        returns.append(total)
    q_all = torch.stack(q_seen)
    counts, edges = np.histogram(q_all.numpy(), bins=bins)  # expect: DEV011
    return {
        "mean_return": float(np.mean(returns)),
        "q_hist": counts.tolist(),
        "q_range": (float(edges[0]), float(edges[-1])),
    }


def format_report(step, stats):
    lo, hi = stats["q_range"]
    bars = " ".join(str(c) for c in stats["q_hist"])
    return f"step {step:5d}  return {stats['mean_return']:+.2f}  q in [{lo:+.2f}, {hi:+.2f}]  hist {bars}"
