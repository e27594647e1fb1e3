"""Multi-task attribute classifier with homoscedastic-uncertainty loss
weighting (Kendall et al. 2018): one learnt log-variance per task.

Tasks: age bucket (5), expression (3), glasses (2); the expression labels are
imbalanced so that task uses class weights.
"""
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset
from torchmetrics import MetricCollection
from torchmetrics.classification import MulticlassAccuracy, MulticlassF1Score

TASKS = {"age": 5, "expression": 3, "glasses": 2}
PRIOR_WEIGHT = torch.tensor([1.0, 1.0, 0.5])  # manual prior per task, same order as TASKS


class AttributeData(Dataset):
    def __init__(self, n, seed):
        g = torch.Generator().manual_seed(seed)
        self.x = torch.randn(n, 3, 20, 20, generator=g)
        self.y = {
            "age": torch.randint(0, 5, (n,), generator=g),
            "expression": torch.multinomial(torch.tensor([0.7, 0.2, 0.1]), n, replacement=True, generator=g),
            "glasses": torch.randint(0, 2, (n,), generator=g),
        }
        self.x[:, 0] += self.y["age"].view(-1, 1, 1) * 0.2
        self.x[:, 1] += self.y["expression"].view(-1, 1, 1) * 0.4
        self.x[:, 2, :5] += self.y["glasses"].view(-1, 1, 1) * 1.0

    def __len__(self):
        return len(self.x)

    def __getitem__(self, i):
        return self.x[i], {t: v[i] for t, v in self.y.items()}


class MultiHeadNet(nn.Module):
    def __init__(self, tasks, width=32):
        super().__init__()
        self.backbone = nn.Sequential(
            nn.Conv2d(3, width, 3, padding=1), nn.BatchNorm2d(width), nn.ReLU(),
            nn.Conv2d(width, width, 3, stride=2, padding=1), nn.BatchNorm2d(width), nn.ReLU(),
            nn.AdaptiveAvgPool2d(1), nn.Flatten(),
        )
        self.heads = nn.ModuleDict({t: nn.Linear(width, n) for t, n in tasks.items()})
        self.log_vars = nn.Parameter(torch.zeros(len(tasks)))

    def forward(self, x):
        feats = self.backbone(x)
        return {t: head(feats) for t, head in self.heads.items()}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=3)
    ap.add_argument("--cuda", action="store_true", help="train on the GPU if there is one")
    args = ap.parse_args()
    device = torch.device("cuda" if args.cuda and torch.cuda.is_available() else "cpu")
    torch.manual_seed(0)

    train_dl = DataLoader(AttributeData(1200, 0), batch_size=64, shuffle=True)
    val_dl = DataLoader(AttributeData(400, 1), batch_size=200)

    model = MultiHeadNet(TASKS).to(device)
    opt = torch.optim.Adam(model.parameters(), lr=2e-3)
    expr_weight = torch.tensor([0.5, 1.5, 3.0], device=device)
    metrics = nn.ModuleDict({
        t: MetricCollection({"acc": MulticlassAccuracy(num_classes=n), "f1": MulticlassF1Score(num_classes=n)})
        for t, n in TASKS.items()
    }).to(device)

    for epoch in range(args.epochs):
        model.train()
        for x, ys in train_dl:
            x = x.to(device)
            ys = {t: y.to(device) for t, y in ys.items()}
            outs = model(x)
            total = 0.0
            for i, t in enumerate(TASKS):
                w = expr_weight if t == "expression" else None
                task_loss = F.cross_entropy(outs[t], ys[t], weight=w)
                precision = torch.exp(-model.log_vars[i])
                total = total + PRIOR_WEIGHT[i] * (precision * task_loss + model.log_vars[i])
            opt.zero_grad()
            total.backward()
            opt.step()

        model.eval()
        for m in metrics.values():
            m.reset()
        with torch.no_grad():
            for x, ys in val_dl:
                outs = model(x.to(device))
                for t in TASKS:
                    metrics[t].update(outs[t].argmax(-1), ys[t].to(device))
        report = {t: {k: round(v.item(), 3) for k, v in metrics[t].compute().items()} for t in TASKS}
        sigmas = torch.exp(0.5 * model.log_vars).detach().cpu().tolist()
        print(f"epoch {epoch}: {report} sigma={[round(s, 2) for s in sigmas]}")


if __name__ == "__main__":
    main()
