"""Actor-critic on CartPole done right: observations made on the device, actions back with .item() / .cpu(),
replay samples created with device=, CPU scalars mixed with device tensors."""
import gymnasium as gym
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


class Buffer:
    def __init__(self):
        self.items = []

    def push(self, *transition):
        self.items.append(transition)

    def sample(self, n, device):
        idx = np.random.randint(len(self.items), size=n)
        obs, act, rew, nxt, done = map(np.array, zip(*[self.items[i] for i in idx]))
        as_t = lambda a, dt=torch.float32: torch.tensor(a, dtype=dt, device=device)
        return as_t(obs), as_t(act, torch.long), as_t(rew), as_t(nxt), as_t(done)


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    env = gym.make("CartPole-v1")
    net = nn.Sequential(nn.Linear(4, 128), nn.ReLU(), nn.Linear(128, 3)).to(device)
    opt = torch.optim.Adam(net.parameters(), lr=1e-3)
    gamma = torch.tensor(0.99)
    buf = Buffer()
    obs, _ = env.reset(seed=0)
    for step in range(5000):
        with torch.no_grad():
            out = net(torch.as_tensor(obs, dtype=torch.float32, device=device))
        probs = out[:2].softmax(-1)
        action = torch.multinomial(probs, 1).item()
        logged = probs.cpu().numpy()
        nxt, r, term, trunc, _ = env.step(action)
        buf.push(obs, action, r, nxt, float(term))
        obs = env.reset()[0] if term or trunc else nxt
        if step >= 256:
            o, a, r, o2, d = buf.sample(64, device)
            out_o, out_o2 = net(o), net(o2).detach()
            target = r + gamma * (1 - d) * out_o2[:, 2]
            logp = out_o[:, :2].log_softmax(-1).gather(1, a[:, None]).squeeze(1)
            adv = (target - out_o[:, 2]).detach()
            loss = -(logp * adv).mean() + F.mse_loss(out_o[:, 2], target)
            opt.zero_grad()
            loss.backward()
            opt.step()
        if step % 1000 == 0:
            print(step, logged)


if __name__ == "__main__":
    main()
