"""RL done right: every replay field converted with device=, observations as_tensor on the
device, returns made on the values' device, actions copied to the host for the environment."""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    q = nn.Sequential(nn.Linear(4, 32), nn.ReLU(), nn.Linear(32, 2)).to(device)
    opt = torch.optim.Adam(q.parameters(), lr=1e-3)
    rng = np.random.default_rng(0)
    obs = rng.normal(size=(256, 4)).astype(np.float32)
    nxt = rng.normal(size=(256, 4)).astype(np.float32)
    act = rng.integers(0, 2, 256)
    rew = rng.normal(size=256).astype(np.float32)
    for _ in range(20):
        idx = rng.integers(0, 256, 32)
        o = torch.as_tensor(obs[idx], device=device)
        o2 = torch.as_tensor(nxt[idx], device=device)
        a = torch.as_tensor(act[idx], device=device)
        r = torch.as_tensor(rew[idx], device=device)
        with torch.no_grad():
            target = r + 0.99 * q(o2).max(1).values
        loss = F.mse_loss(q(o).gather(1, a[:, None]).squeeze(1), target)
        opt.zero_grad()
        loss.backward()
        opt.step()
    state = torch.as_tensor(obs[:1], device=device)
    greedy = q(state).argmax(1).cpu().numpy()
    rets = torch.tensor([1.0, 0.5, 0.25], device=device)
    vals = q(torch.as_tensor(obs[:3], device=device)).max(1).values
    print(greedy, (rets - vals).pow(2).mean().item())


if __name__ == "__main__":
    main()
