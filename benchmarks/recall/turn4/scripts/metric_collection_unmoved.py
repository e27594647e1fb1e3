"""Validation with a torchmetrics MetricCollection for a multi-label tagger."""
import torch
import torch.nn as nn
from torchmetrics import MetricCollection
from torchmetrics.classification import MultilabelAUROC, MultilabelF1Score

NUM_TAGS = 6
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")

model = nn.Sequential(nn.Linear(40, 64), nn.ReLU(), nn.Linear(64, NUM_TAGS)).to(device)
val_metrics = MetricCollection({  # expect: DEV019
    "f1": MultilabelF1Score(num_labels=NUM_TAGS),
    "auroc": MultilabelAUROC(num_labels=NUM_TAGS),
})

model.eval()
with torch.no_grad():
    for _ in range(4):
        x = torch.randn(32, 40, device=device)
        y = torch.randint(0, 2, (32, NUM_TAGS), device=device)
        val_metrics.update(torch.sigmoid(model(x)), y)
print({k: v.item() for k, v in val_metrics.compute().items()})
