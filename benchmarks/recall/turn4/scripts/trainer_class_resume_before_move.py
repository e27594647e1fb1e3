"""A small trainer class that can resume from a checkpoint; the device is set up after the resume."""
import os
import sys

import torch
import torch.nn as nn
import torch.nn.functional as F


class Trainer:
    def __init__(self, ckpt_path=None):
        self.model = nn.Sequential(nn.Linear(16, 64), nn.ReLU(), nn.Linear(64, 1))
        self.optimizer = torch.optim.Adam(self.model.parameters(), lr=1e-3)
        self.step = 0
        if ckpt_path and os.path.exists(ckpt_path):
            self.restore(ckpt_path)
        self.device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
        self.model.to(self.device)

    def restore(self, path):
        state = torch.load(path, map_location="cpu")
        self.model.load_state_dict(state["model"])
        self.optimizer.load_state_dict(state["optimizer"])  # expect: DEV017
        self.step = state["step"]

    def save(self, path):
        torch.save({"model": self.model.state_dict(), "optimizer": self.optimizer.state_dict(), "step": self.step}, path)

    def fit(self, steps):
        for _ in range(steps):
            x = torch.randn(32, 16, device=self.device)
            loss = F.mse_loss(self.model(x), x.sum(1, keepdim=True))
            self.optimizer.zero_grad()
            loss.backward()
            self.optimizer.step()
            self.step += 1
        return loss.item()


if __name__ == "__main__":
    path = sys.argv[1] if len(sys.argv) > 1 else "trainer_ckpt.pt"
    trainer = Trainer(path)
    print(trainer.fit(10))
    trainer.save(path)
