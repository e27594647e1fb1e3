"""Double-DQN agent class: the target network is a deep copy of the online network, taken in the
constructor before the agent is sent to the GPU.

Thread: https://github.com/OpenRLHF/OpenRLHF/issues/245 (ema/target copy and online model on
different devices: cuda:2 and cpu); https://github.com/lucidrains/DALLE2-pytorch/issues/87 (EMA Bug).
"""
import copy

import numpy as np
import torch
import torch.nn as nn


def build_agent(obs_dim=6, n_act=3):
    online = nn.Sequential(nn.Linear(obs_dim, 64), nn.Tanh(), nn.Linear(64, n_act))
    target = copy.deepcopy(online)  # expect: DEV016
    return online, target


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    online, target = build_agent()
    online.to(device)
    opt = torch.optim.Adam(online.parameters(), lr=5e-4)
    for step in range(200):
        s = torch.as_tensor(np.random.randn(32, 6), dtype=torch.float32, device=device)
        s2 = torch.as_tensor(np.random.randn(32, 6), dtype=torch.float32, device=device)
        a = torch.randint(0, 3, (32,), device=device)
        r = torch.randn(32, device=device)
        with torch.no_grad():
            best = online(s2).argmax(1, keepdim=True)
            y = r + 0.99 * target(s2).gather(1, best).squeeze(1)
        loss = nn.functional.mse_loss(online(s).gather(1, a[:, None]).squeeze(1), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        if step % 50 == 0:
            target.load_state_dict(online.state_dict())


if __name__ == "__main__":
    main()
