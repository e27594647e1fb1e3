"""accelerate training loop with mixup: one-hot targets from F.one_hot, CPU permutation indices."""
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
    eval_loader = DataLoader(TensorDataset(x[:64], y[:64]), batch_size=32)
    model = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten(),
                          nn.Linear(8, NUM_CLASSES))
    optimizer = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
    model, optimizer, loader, eval_loader = accelerator.prepare(model, optimizer, loader, eval_loader)

    for epoch in range(2):
        model.train()
        for xb, yb in loader:
            lam = float(np.random.beta(0.4, 0.4))
            perm = torch.randperm(xb.size(0))
            targets = F.one_hot(yb, NUM_CLASSES).float()
            mixed_x = lam * xb + (1 - lam) * xb[perm]
            mixed_t = lam * targets + (1 - lam) * targets[perm]
            loss = torch.sum(-mixed_t * F.log_softmax(model(mixed_x), dim=-1), dim=-1).mean()
            optimizer.zero_grad()
            accelerator.backward(loss)
            optimizer.step()
        model.eval()
        correct = []
        with torch.no_grad():
            for xb, yb in eval_loader:
                preds, refs = accelerator.gather_for_metrics((model(xb).argmax(-1), yb))
                correct.append((preds == refs).cpu().numpy())
        accelerator.print(epoch, float(np.concatenate(correct).mean()))


if __name__ == "__main__":
    main()
