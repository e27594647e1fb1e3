import copy

import torch
import torch.nn.functional as F

from .networks import NoisyQNet


class RainbowLiteAgent:
    def __init__(self, obs_dim, n_actions, device, gamma=0.99, lr=5e-4):
        self.device, self.gamma = device, gamma
        self.online = NoisyQNet(obs_dim, n_actions).to(device)
        self.target = copy.deepcopy(self.online)
        self.opt = torch.optim.Adam(self.online.parameters(), lr=lr)

    @torch.no_grad()
    def act(self, obs_batch):
        """obs_batch: (n_envs, obs_dim) numpy -> numpy actions"""
        q = self.online(torch.as_tensor(obs_batch, device=self.device))
        return q.argmax(dim=1).numpy()  # expect: DEV011

    def learn(self, batch):
        q = self.online(batch["obs"]).gather(1, batch["act"][:, None]).squeeze(1)
        with torch.no_grad():
            best = self.online(batch["next_obs"]).argmax(1, keepdim=True)
            q_next = self.target(batch["next_obs"]).gather(1, best).squeeze(1)
            y = batch["rew"] + self.gamma * (1 - batch["done"]) * q_next
        td = y - q
        loss = (batch["weights"] * F.smooth_l1_loss(q, y, reduction="none")).mean()
        self.opt.zero_grad()
        loss.backward()
        self.opt.step()
        return loss.item(), td.detach().abs().cpu().numpy()

    def sync(self):
        self.target.load_state_dict(self.online.state_dict())
