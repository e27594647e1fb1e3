"""A trainer class that moves the model first and restores the optimizer afterwards, so the restored
state is cast to the parameters' device."""
import os
import sys

import torch
import torch.nn as nn
import torch.nn.functional as F


class Trainer:
    def __init__(self, ckpt_path=None):
        self.device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
        self.model = nn.Sequential(nn.Linear(16, 64), nn.ReLU(), nn.Linear(64, 1)).to(self.device)
        self.optimizer = torch.optim.Adam(self.model.parameters(), lr=1e-3)
        self.ema = torch.optim.swa_utils.AveragedModel(self.model)
        self.step = 0
        if ckpt_path and os.path.exists(ckpt_path):
            self.restore(ckpt_path)

    def restore(self, path):
        state = torch.load(path, map_location="cpu")
        self.model.load_state_dict(state["model"])
        self.optimizer.load_state_dict(state["optimizer"])
        self.step = state["step"]

    def fit(self, steps):
        for _ in range(steps):
            x = torch.randn(32, 16, device=self.device)
            loss = F.mse_loss(self.model(x), x.sum(1, keepdim=True))
            self.optimizer.zero_grad()
            loss.backward()
            self.optimizer.step()
            self.ema.update_parameters(self.model)
            self.step += 1
        return loss.item()


if __name__ == "__main__":
    path = sys.argv[1] if len(sys.argv) > 1 else "resume_ok.pt"
    trainer = Trainer(path)
    print(trainer.fit(5))
    torch.save({"model": trainer.model.state_dict(), "optimizer": trainer.optimizer.state_dict(),
                "step": trainer.step}, path)
