"""Two-stage transfer with accelerate: pre-train a small CNN on a 10-way proxy
task, then swap in a 3-way head for the target task and keep training.

Written from "Fix device / dtype change for all classifier resets" and
"There is an error in the reasoning weight loading code" (a head re-created after
the model was placed on the GPU), plus the torchmetrics reports "Metrics not on
same device as Trainer/model" and "Accuracy, Precision, Recall raises
RuntimeError when device='cuda'": accelerator.prepare moves what it is given,
not what is attached later, and never touches a metric object.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F
from accelerate import Accelerator
from torch.utils.data import DataLoader, TensorDataset
from torchmetrics.classification import MulticlassAccuracy


class SmallCNN(nn.Module):
    def __init__(self, n_classes):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(1, 16, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
            nn.Conv2d(16, 32, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten(),
        )
        self.head = nn.Linear(32, n_classes)

    def forward(self, x):
        return self.head(self.features(x))


def toy_images(n, n_classes, seed):
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(n, 1, 16, 16, generator=g)
    y = torch.randint(0, n_classes, (n,), generator=g)
    x[:, :, :4, :4] += y.view(-1, 1, 1, 1).float() / n_classes
    return TensorDataset(x, y)


def run_epoch(accelerator, model, loader, optimizer):
    model.train()
    for x, y in loader:
        loss = F.cross_entropy(model(x), y)
        accelerator.backward(loss)
        optimizer.step()
        optimizer.zero_grad()
    return loss.item()


def main():
    accelerator = Accelerator()
    model = SmallCNN(n_classes=10)
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    proxy_loader = DataLoader(toy_images(256, 10, seed=0), batch_size=32, shuffle=True)
    model, optimizer, proxy_loader = accelerator.prepare(model, optimizer, proxy_loader)
    for epoch in range(2):
        accelerator.print("proxy", epoch, run_epoch(accelerator, model, proxy_loader, optimizer))

    # stage 2: new label space, new head, fresh optimizer
    accelerator.unwrap_model(model).head = nn.Linear(32, 3)  # expect: DEV015
    optimizer = accelerator.prepare(torch.optim.Adam(model.parameters(), lr=5e-4))
    target_loader = accelerator.prepare(DataLoader(toy_images(128, 3, seed=1), batch_size=32, shuffle=True))
    val_loader = accelerator.prepare(DataLoader(toy_images(64, 3, seed=2), batch_size=32))
    val_acc = MulticlassAccuracy(num_classes=3, average="macro")  # expect: DEV019

    for epoch in range(3):
        loss = run_epoch(accelerator, model, target_loader, optimizer)
        model.eval()
        with torch.no_grad():
            for x, y in val_loader:
                preds = model(x).argmax(dim=-1)
                preds, y = accelerator.gather_for_metrics((preds, y))
                val_acc.update(preds, y)
        accelerator.print(f"target epoch {epoch}: loss {loss:.3f} acc {val_acc.compute().item():.3f}")
        val_acc.reset()


if __name__ == "__main__":
    main()
