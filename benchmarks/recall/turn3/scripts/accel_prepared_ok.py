"""accelerate training with a loader prepared late and tensors made on accelerator.device."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from accelerate import Accelerator
from torch.utils.data import DataLoader, TensorDataset


def main():
    accelerator = Accelerator(gradient_accumulation_steps=2)
    device = accelerator.device
    x = torch.randn(1024, 16)
    y = (x.sum(1) > 0).long()
    model = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 2))
    optimizer = torch.optim.AdamW(model.parameters(), lr=3e-3)
    train_loader = DataLoader(TensorDataset(x, y), batch_size=32, shuffle=True)
    model, optimizer, train_loader = accelerator.prepare(model, optimizer, train_loader)
    eval_loader = accelerator.prepare_data_loader(DataLoader(TensorDataset(x[:256], y[:256]), batch_size=64))
    label_prior = torch.tensor([0.5, 0.5], device=device).log()
    for epoch in range(3):
        model.train()
        for xb, yb in train_loader:
            with accelerator.accumulate(model):
                jitter = torch.randn(xb.shape, device=accelerator.device) * 0.01
                loss = F.cross_entropy(model(xb + jitter) + label_prior, yb)
                accelerator.backward(loss)
                optimizer.step()
                optimizer.zero_grad()
        model.eval()
        hits = torch.zeros((), device=device)
        for xb, yb in eval_loader:
            with torch.no_grad():
                hits += (model(xb).argmax(-1) == yb).sum()
        total = accelerator.reduce(hits, reduction="sum")
        accelerator.print(f"epoch {epoch}: acc {total.item() / 256:.3f}")


if __name__ == "__main__":
    main()
