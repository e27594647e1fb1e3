"""Log activation histograms through forward hooks, wandb-style (a dict per step)."""
import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


class RunLogger:
    """Minimal stand-in for wandb.log: keeps every logged dict in memory."""

    def __init__(self):
        self.history = []

    def log(self, data, step=None):
        self.history.append({"step": step, **data})


def to_histogram(t, bins=20):
    counts, edges = np.histogram(t.detach().flatten().numpy(), bins=bins)  # expect: DEV011
    return {"counts": counts.tolist(), "edges": edges.tolist()}


class ActivationMonitor:
    def __init__(self, model, logger, every=10):
        self.logger = logger
        self.every = every
        self.step = 0
        self.handles = [m.register_forward_hook(self._hook(name))
                        for name, m in model.named_modules() if isinstance(m, nn.ReLU)]

    def _hook(self, name):
        def fn(module, inputs, output):
            if self.step % self.every == 0:
                self.logger.log({f"act/{name}": to_histogram(output)}, step=self.step)
        return fn

    def tick(self):
        self.step += 1


def main():
    device = "cuda" if torch.cuda.is_available() else "cpu"
    ds = TensorDataset(torch.randn(320, 16), torch.randint(0, 4, (320,)))
    loader = DataLoader(ds, batch_size=32, shuffle=True)
    model = nn.Sequential(nn.Linear(16, 64), nn.ReLU(), nn.Linear(64, 64), nn.ReLU(), nn.Linear(64, 4)).to(device)
    opt = torch.optim.SGD(model.parameters(), lr=0.05)
    logger = RunLogger()
    monitor = ActivationMonitor(model, logger)
    for x, y in loader:
        x, y = x.to(device), y.to(device)
        loss = nn.functional.cross_entropy(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        logger.log({"loss": loss.item()}, step=monitor.step)
        monitor.tick()
    print(len(logger.history), "log entries")


if __name__ == "__main__":
    main()
