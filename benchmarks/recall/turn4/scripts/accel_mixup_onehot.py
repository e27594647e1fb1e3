"""accelerate training loop with mixup; the one-hot targets are built by scatter."""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from accelerate import Accelerator
from torch.utils.data import DataLoader, TensorDataset

NUM_CLASSES = 4


def main():
    accelerator = Accelerator()
    x = torch.randn(256, 3, 16, 16)
    y = torch.randint(0, NUM_CLASSES, (256,))
    loader = DataLoader(TensorDataset(x, y), batch_size=32, shuffle=True)
    model = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten(),
                          nn.Linear(8, NUM_CLASSES))
    optimizer = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
    model, optimizer, loader = accelerator.prepare(model, optimizer, loader)

    for epoch in range(2):
        for xb, yb in loader:
            lam = float(np.random.beta(0.4, 0.4))
            perm = torch.randperm(xb.size(0))
            targets = torch.zeros(xb.size(0), NUM_CLASSES).scatter_(1, yb.unsqueeze(1), 1.0)  # expect: DEV006
            mixed_x = lam * xb + (1 - lam) * xb[perm]
            mixed_t = lam * targets + (1 - lam) * targets[perm]
            loss = torch.sum(-mixed_t * F.log_softmax(model(mixed_x), dim=-1), dim=-1).mean()
            optimizer.zero_grad()
            accelerator.backward(loss)
            optimizer.step()


if __name__ == "__main__":
    main()
