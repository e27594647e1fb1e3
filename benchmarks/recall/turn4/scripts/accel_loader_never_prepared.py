"""accelerate: the model and optimizer are prepared, the training loader is not."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from accelerate import Accelerator
from torch.utils.data import DataLoader, TensorDataset


def main():
    accelerator = Accelerator()
    x = torch.randn(512, 20)
    y = (x[:, :5].sum(1) > 0).long()
    train_loader = DataLoader(TensorDataset(x, y), batch_size=32, shuffle=True)

    model = nn.Sequential(nn.Linear(20, 64), nn.GELU(), nn.Linear(64, 2))
    optimizer = torch.optim.AdamW(model.parameters(), lr=3e-3)
    model, optimizer = accelerator.prepare(model, optimizer)

    for epoch in range(3):
        model.train()
        for xb, yb in train_loader:
            logits = model(xb)  # expect: DEV002
            loss = F.cross_entropy(logits, yb)  # also: DEV004
            optimizer.zero_grad()
            accelerator.backward(loss)
            optimizer.step()
        accelerator.print(f"epoch {epoch} loss {loss.item():.3f}")


if __name__ == "__main__":
    main()
