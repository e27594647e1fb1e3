"""(Correct) Validation metrics chosen in the YAML config and built through a name -> class table."""
import torch
import torch.nn as nn
import torch.nn.functional as F
import yaml
from torchmetrics.classification import MulticlassAccuracy, MulticlassF1Score, MulticlassAUROC

CONFIG = """
num_classes: 5
epochs: 2
metrics: [accuracy, macro_f1, auroc]
"""

METRICS = {
    "accuracy": lambda n: MulticlassAccuracy(num_classes=n),
    "macro_f1": lambda n: MulticlassF1Score(num_classes=n, average="macro"),
    "auroc": lambda n: MulticlassAUROC(num_classes=n),
}


def build_metrics(names, num_classes, device):
    return {name: METRICS[name](num_classes).to(device) for name in names}


def batches(n, bs=16, dim=12, classes=5, seed=0):
    g = torch.Generator().manual_seed(seed)
    return [(torch.randn(bs, dim, generator=g), torch.randint(0, classes, (bs,), generator=g))
            for _ in range(n)]


def main():
    cfg = yaml.safe_load(CONFIG)
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = nn.Sequential(nn.Linear(12, 32), nn.ReLU(), nn.Linear(32, cfg["num_classes"])).to(device)
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    val_metrics = build_metrics(cfg["metrics"], cfg["num_classes"], device)
    train_acc = MulticlassAccuracy(num_classes=cfg["num_classes"]).to(device)

    for epoch in range(cfg["epochs"]):
        model.train()
        for x, y in batches(6, seed=epoch):
            x, y = x.to(device), y.to(device)
            logits = model(x)
            loss = F.cross_entropy(logits, y)
            opt.zero_grad()
            loss.backward()
            opt.step()
            train_acc.update(logits.detach(), y)

        model.eval()
        with torch.no_grad():
            for x, y in batches(3, seed=100 + epoch):
                x, y = x.to(device), y.to(device)
                probs = model(x).softmax(-1)
                for metric in val_metrics.values():
                    metric.update(probs, y)
        report = {name: round(m.compute().item(), 4) for name, m in val_metrics.items()}
        print(f"epoch {epoch} train_acc {train_acc.compute().item():.3f} {report}")
        train_acc.reset()
        for metric in val_metrics.values():
            metric.reset()


if __name__ == "__main__":
    main()
