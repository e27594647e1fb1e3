"""DQN update with replay samples converted straight onto the device and a target network copied
after the move.

Look-alike of rl_replay_from_numpy_batch.py and rl_target_net_copied_early.py.
Thread: https://github.com/DeepRLChinese/DeepRL-Chinese/issues/4
"""
import copy

import numpy as np
import torch
import torch.nn as nn


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    q = nn.Sequential(nn.Linear(4, 64), nn.ReLU(), nn.Linear(64, 2)).to(device)
    q_target = copy.deepcopy(q)
    opt = torch.optim.Adam(q.parameters(), lr=1e-3)
    for _ in range(100):
        s, s2 = np.random.randn(32, 4).astype(np.float32), np.random.randn(32, 4).astype(np.float32)
        a, r = np.random.randint(0, 2, 32), np.random.randn(32).astype(np.float32)
        s_t = torch.from_numpy(s).to(device)
        a_t = torch.as_tensor(a, device=device)
        r_t = torch.as_tensor(r, device=device)
        with torch.no_grad():
            y = r_t + 0.99 * q_target(torch.from_numpy(s2).to(device)).max(1).values
        loss = nn.functional.mse_loss(q(s_t).gather(1, a_t[:, None]).squeeze(1), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(loss.item())


if __name__ == "__main__":
    main()
