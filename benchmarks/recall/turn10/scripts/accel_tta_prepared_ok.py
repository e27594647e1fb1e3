"""Correct look-alike: training and test loaders both go through accelerator.prepare, so the test
batches reach the model on its device; the gathered predictions go back to the host with .cpu()
before NumPy computes the interval coverage.

Thread: https://github.com/huggingface/accelerate/issues/1365 (the fix: prepare every loader
whose batches meet the prepared model).
"""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from accelerate import Accelerator
from torch.utils.data import DataLoader, Dataset


class Patches(Dataset):
    def __init__(self, n):
        self.x = torch.rand(n, 3, 32, 32)
        self.y = torch.randint(0, 10, (n,))

    def __len__(self):
        return len(self.y)

    def __getitem__(self, i):
        return {"pixel_values": self.x[i], "label": self.y[i]}


def build_model():
    return nn.Sequential(
        nn.Conv2d(3, 16, 3, padding=1), nn.BatchNorm2d(16), nn.ReLU(),
        nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(16, 10),
    )


@torch.no_grad()
def predict_tta(accelerator, model, loader):
    model.eval()
    probs, labels = [], []
    for batch in loader:
        x = batch["pixel_values"]
        p = model(x).softmax(-1) + model(torch.flip(x, dims=[3])).softmax(-1)
        p, y = accelerator.gather_for_metrics((p, batch["label"]))
        probs.append(p.cpu())
        labels.append(y.cpu())
    probs, labels = torch.cat(probs).numpy(), torch.cat(labels).numpy()
    return float(np.mean(probs.argmax(-1) == labels))


def main():
    accelerator = Accelerator()
    model = build_model()
    opt = torch.optim.AdamW(model.parameters(), lr=2e-3)
    train_loader = DataLoader(Patches(512), batch_size=64, shuffle=True)
    test_loader = DataLoader(Patches(128), batch_size=64)
    model, opt, train_loader, test_loader = accelerator.prepare(model, opt, train_loader, test_loader)
    for epoch in range(2):
        model.train()
        for batch in train_loader:
            loss = F.cross_entropy(model(batch["pixel_values"]), batch["label"])
            accelerator.backward(loss)
            opt.step()
            opt.zero_grad()
    accelerator.print(f"tta accuracy: {predict_tta(accelerator, model, test_loader):.3f}")


if __name__ == "__main__":
    main()
