"""DQN on a toy environment with a NumPy replay buffer; sampled transitions are turned into
tensors for the TD update.

Thread: https://github.com/DeepRLChinese/DeepRL-Chinese/issues/4 (agent.get_action(torch.from_numpy(state))
with a CUDA Q-network: cpu and cuda:0, wrapper_CUDA_mm); https://github.com/xin-pu/RLSharp/issues/14.
"""
import random

import numpy as np
import torch
import torch.nn as nn


class Replay:
    def __init__(self, cap=5000):
        self.data, self.cap = [], cap

    def push(self, *tr):
        self.data.append(tr)
        self.data = self.data[-self.cap:]

    def sample(self, n):
        s, a, r, s2, d = zip(*random.sample(self.data, n))
        return np.stack(s), np.array(a), np.array(r, dtype=np.float32), np.stack(s2), np.array(d, dtype=np.float32)


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    q = nn.Sequential(nn.Linear(4, 64), nn.ReLU(), nn.Linear(64, 2)).to(device)
    opt = torch.optim.Adam(q.parameters(), lr=1e-3)
    buf = Replay()
    obs = np.random.randn(4).astype(np.float32)
    for step in range(300):
        with torch.no_grad():
            act = int(q(torch.as_tensor(obs, device=device)).argmax()) if random.random() > 0.1 else random.randrange(2)
        nxt = np.random.randn(4).astype(np.float32)
        buf.push(obs, act, float(nxt[0] > 0), nxt, float(step % 50 == 49))
        obs = nxt
        if len(buf.data) >= 64:
            s, a, r, s2, d = buf.sample(64)
            s_t = torch.from_numpy(s)  # expect: DEV006
            a_t = torch.as_tensor(a, device=device)
            q_sa = q(s_t).gather(1, a_t.unsqueeze(1)).squeeze(1)
            with torch.no_grad():
                s2_t = torch.as_tensor(s2, device=device)
                target = torch.as_tensor(r, device=device) + 0.99 * (1 - torch.as_tensor(d, device=device)) * q(s2_t).max(1).values
            loss = nn.functional.smooth_l1_loss(q_sa, target)
            opt.zero_grad()
            loss.backward()
            opt.step()


if __name__ == "__main__":
    main()
