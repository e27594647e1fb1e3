"""PPO training loop for BarBalance, with checkpointing that reloads onto whatever device is present."""
import os
import tempfile

import numpy as np
import torch
import torch.nn.functional as F

from agent import ActorCritic
from buffer import RolloutBuffer
from env import BarBalance

CKPT = os.path.join(tempfile.gettempdir(), "d_ppo_agent.pt")


def ppo_update(agent, optimizer, buf, device, clip=0.2, epochs=4, batch_size=64):
    for _ in range(epochs):
        for mb in buf.minibatches(batch_size, device):
            dist, value = agent(mb["obs"])
            ratio = (dist.log_prob(mb["actions"]) - mb["logps"]).exp()
            surr = torch.min(ratio * mb["advantages"], ratio.clamp(1 - clip, 1 + clip) * mb["advantages"])
            loss = -surr.mean() + 0.5 * F.mse_loss(value, mb["returns"]) - 0.01 * dist.entropy().mean()
            optimizer.zero_grad()
            loss.backward()
            torch.nn.utils.clip_grad_norm_(agent.parameters(), 0.5)
            optimizer.step()
    return loss.item()


def main(updates=6, steps=256):
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    np.random.seed(0)
    torch.manual_seed(0)
    env = BarBalance()
    agent = ActorCritic(env.obs_dim, env.n_actions).to(device)
    if os.path.exists(CKPT):
        agent.load_state_dict(torch.load(CKPT, map_location=device))
    optimizer = torch.optim.Adam(agent.parameters(), lr=3e-4)
    buf = RolloutBuffer(steps, env.obs_dim)
    obs = env.reset()
    for update in range(updates):
        episode_returns, ret = [], 0.0
        for _ in range(steps):
            action, logp, value = agent.act(obs)
            next_obs, reward, done, _ = env.step(action)
            buf.add(obs, action, logp, reward, value, float(done))
            ret += reward
            if done:
                episode_returns.append(ret)
                next_obs, ret = env.reset(), 0.0
            obs = next_obs
        agent.update_obs_stats(buf.obs)
        buf.finish(last_value=agent.act(obs)[2])
        loss = ppo_update(agent, optimizer, buf, device)
        mean_ret = np.mean(episode_returns) if episode_returns else ret
        print(f"update {update}: loss {loss:.3f} mean return {mean_ret:.2f}")
    torch.save(agent.state_dict(), CKPT)


if __name__ == "__main__":
    main()
