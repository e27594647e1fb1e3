"""Multi-task learning on a shared trunk: one classification head, one
multi-label attribute head and one regression head, with per-task losses
summed with fixed task weights."""
from dataclasses import dataclass, field

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset


@dataclass
class TrainConfig:
    epochs: int = 2
    batch_size: int = 32
    lr: float = 3e-3
    task_weights: dict = field(default_factory=lambda: {"cls": 1.0, "attr": 0.5, "reg": 0.2})
    device: str = "cuda" if torch.cuda.is_available() else "cpu"


class ToyMultiTask(Dataset):
    def __init__(self, n=256, d=24):
        g = torch.Generator().manual_seed(1)
        self.x = torch.randn(n, d, generator=g)
        self.cls = (self.x[:, :3].sum(1) > 0).long() + (self.x[:, 3] > 1).long()
        self.attr = (self.x[:, 4:8] > 0.8).float()
        self.reg = self.x[:, 8:10].sum(1, keepdim=True)

    def __len__(self):
        return len(self.x)

    def __getitem__(self, i):
        return {"x": self.x[i], "cls": self.cls[i], "attr": self.attr[i], "reg": self.reg[i]}


class MultiTaskNet(nn.Module):
    def __init__(self, d_in=24, hidden=64):
        super().__init__()
        self.trunk = nn.Sequential(nn.Linear(d_in, hidden), nn.ReLU(), nn.Linear(hidden, hidden), nn.ReLU())
        self.heads = {  # expect: DEV009
            "cls": nn.Linear(hidden, 3),
            "attr": nn.Linear(hidden, 4),
            "reg": nn.Linear(hidden, 1),
        }

    def forward(self, x):
        h = self.trunk(x)
        return {name: head(h) for name, head in self.heads.items()}


def build_criteria():
    # attributes are rare: up-weight the positives per attribute
    return {
        "cls": nn.CrossEntropyLoss(),
        "attr": nn.BCEWithLogitsLoss(pos_weight=torch.tensor([4.0, 4.0, 6.0, 3.0])),  # expect: DEV012
        "reg": nn.SmoothL1Loss(),
    }


def main(cfg: TrainConfig):
    device = torch.device(cfg.device)
    model = MultiTaskNet().to(device)
    criteria = build_criteria()
    params = list(model.parameters()) + [p for h in model.heads.values() for p in h.parameters()]
    opt = torch.optim.AdamW(params, lr=cfg.lr)
    loader = DataLoader(ToyMultiTask(), batch_size=cfg.batch_size, shuffle=True)

    for epoch in range(cfg.epochs):
        totals = {k: 0.0 for k in criteria}
        for batch in loader:
            batch = {k: v.to(device) for k, v in batch.items()}
            outputs = model(batch["x"])
            losses = {k: criteria[k](outputs[k], batch[k]) for k in criteria}
            loss = sum(cfg.task_weights[k] * losses[k] for k in losses)
            opt.zero_grad()
            loss.backward()
            opt.step()
            for k, v in losses.items():
                totals[k] += v.item()
        print(f"epoch {epoch}: " + " ".join(f"{k}={v / len(loader):.3f}" for k, v in totals.items()))


if __name__ == "__main__":
    main(TrainConfig())
