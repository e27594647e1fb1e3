import copy
import random

import torch
import torch.nn as nn
import torch.nn.functional as F


class QNet(nn.Module):
    def __init__(self, obs_dim, n_actions, hidden=64):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(obs_dim, hidden), nn.ReLU(), nn.Linear(hidden, hidden), nn.ReLU())
        self.value = nn.Linear(hidden, 1)
        self.advantage = nn.Linear(hidden, n_actions)

    def forward(self, x):
        h = self.body(x)
        adv = self.advantage(h)
        return self.value(h) + adv - adv.mean(dim=1, keepdim=True)


class DQNAgent:
    """Dueling double-DQN agent; call .to(device) once it is set up."""

    def __init__(self, obs_dim, n_actions, cfg):
        self.cfg = cfg
        self.n_actions = n_actions
        self.device = torch.device("cpu")
        self.online = QNet(obs_dim, n_actions)
        self.target = copy.deepcopy(self.online)
        self.target.requires_grad_(False)
        self.optimizer = torch.optim.Adam(self.online.parameters(), lr=cfg.lr)
        self.updates = 0

    def to(self, device):
        self.device = torch.device(device)
        self.online.to(self.device)
        self.target.to(self.device)
        return self

    def act(self, obs, epsilon=0.0):
        if random.random() < epsilon:
            return random.randrange(self.n_actions)
        with torch.no_grad():
            q = self.online(torch.as_tensor(obs, device=self.device).unsqueeze(0))
        return int(q.argmax(1).item())

    def learn(self, batch):
        q = self.online(batch["obs"]).gather(1, batch["actions"].unsqueeze(1)).squeeze(1)
        with torch.no_grad():
            next_a = self.online(batch["next_obs"]).argmax(1, keepdim=True)
            next_q = self.target(batch["next_obs"]).gather(1, next_a).squeeze(1)
            y = batch["rewards"] + self.cfg.gamma * (1 - batch["dones"]) * next_q
        td = y - q
        loss = (batch["weights"] * F.smooth_l1_loss(q, y, reduction="none")).mean()
        self.optimizer.zero_grad()
        loss.backward()
        nn.utils.clip_grad_norm_(self.online.parameters(), 10.0)
        self.optimizer.step()
        self.updates += 1
        if self.updates % self.cfg.target_every == 0:
            self.target.load_state_dict(self.online.state_dict())
        return loss.item(), td.detach().abs().cpu().numpy()

    def save(self, path, step):
        torch.save({"online": self.online.state_dict(), "target": self.target.state_dict(),
                    "optimizer": self.optimizer.state_dict(), "step": step}, path)

    def load(self, path):
        ckpt = torch.load(path, map_location="cpu")
        self.online.load_state_dict(ckpt["online"])
        self.target.load_state_dict(ckpt["target"])
        self.optimizer.load_state_dict(ckpt["optimizer"])  # expect: DEV017
        return ckpt["step"]
