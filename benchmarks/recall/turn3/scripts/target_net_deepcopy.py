"""Double DQN on a toy grid world: the target network is a deep copy of the online network."""
import copy
import random

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


class QNet(nn.Module):
    def __init__(self, n_states=25, n_actions=4):
        super().__init__()
        self.emb = nn.Embedding(n_states, 64)
        self.head = nn.Sequential(nn.ReLU(), nn.Linear(64, n_actions))

    def forward(self, s):
        return self.head(self.emb(s))


def step(state, action, size=5):
    r, c = divmod(state, size)
    r = min(max(r + (action == 1) - (action == 0), 0), size - 1)
    c = min(max(c + (action == 3) - (action == 2), 0), size - 1)
    nxt = r * size + c
    return nxt, float(nxt == size * size - 1), nxt == size * size - 1


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    online = QNet()
    target = copy.deepcopy(online)  # expect: DEV016
    online.to(device)
    opt = torch.optim.Adam(online.parameters(), lr=1e-3)
    memory = []
    for episode in range(200):
        s, done = 0, False
        while not done:
            a = random.randrange(4) if random.random() < 0.2 else online(torch.tensor([s], device=device)).argmax().item()
            s2, r, done = step(s, a)
            memory.append((s, a, r, s2, done))
            s = s2
            if len(memory) >= 64:
                batch = random.sample(memory, 64)
                S, A, R, S2, D = (torch.tensor(np.array(col), device=device) for col in zip(*batch))
                with torch.no_grad():
                    best = online(S2).argmax(1, keepdim=True)
                    y = R.float() + 0.9 * (1 - D.float()) * target(S2).gather(1, best).squeeze(1)
                loss = F.mse_loss(online(S).gather(1, A[:, None]).squeeze(1), y)
                opt.zero_grad()
                loss.backward()
                opt.step()
        if episode % 10 == 0:
            target.load_state_dict(online.state_dict())


if __name__ == "__main__":
    main()
