"""(Correct) Multi-task model built through a small registry, as in a research codebase's models/__init__.py."""
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F

MODEL_REGISTRY = {}


def register_model(name):
    def deco(cls):
        MODEL_REGISTRY[name] = cls
        return cls
    return deco


def build_model(cfg):
    cls = MODEL_REGISTRY[cfg["arch"]]
    return cls(**cfg.get("kwargs", {}))


@register_model("shared_bottom")
class SharedBottom(nn.Module):
    def __init__(self, in_dim=16, hidden=32, tasks=(("ctr", 2), ("cvr", 2), ("dwell", 1))):
        super().__init__()
        self.task_names = [t for t, _ in tasks]
        self.bottom = nn.Sequential(nn.Linear(in_dim, hidden), nn.ReLU())
        # one tower per task, looked up by name in forward
        self.towers = nn.ModuleDict({name: nn.Linear(hidden, out) for name, out in tasks})
        # per-feature scaling fitted offline on the training logs
        self.register_buffer("feature_scale", torch.linspace(0.5, 1.5, in_dim))

    def forward(self, x):
        h = self.bottom(x * self.feature_scale)
        outs = {}
        for name in self.task_names:
            outs[name] = self.towers[name](h)
        return outs


def multitask_loss(outs, batch):
    loss = F.cross_entropy(outs["ctr"], batch["click"])
    loss = loss + F.cross_entropy(outs["cvr"], batch["convert"])
    loss = loss + F.mse_loss(outs["dwell"].squeeze(-1), batch["dwell"])
    return loss


def fake_batch(n=32, in_dim=16):
    return {
        "x": torch.randn(n, in_dim),
        "click": torch.randint(0, 2, (n,)),
        "convert": torch.randint(0, 2, (n,)),
        "dwell": torch.rand(n),
    }


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--arch", default="shared_bottom")
    parser.add_argument("--steps", type=int, default=5)
    parser.add_argument("--cpu", action="store_true")
    args = parser.parse_args()

    device = torch.device("cuda" if torch.cuda.is_available() and not args.cpu else "cpu")
    cfg = {"arch": args.arch, "kwargs": {"in_dim": 16, "hidden": 32}}
    model = build_model(cfg).to(device)
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)

    for step in range(args.steps):
        batch = {k: v.to(device) for k, v in fake_batch().items()}
        outs = model(batch["x"])
        loss = multitask_loss(outs, batch)
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(f"step {step} loss {loss.item():.4f}")


if __name__ == "__main__":
    main()
