"""Text classifier trained with accelerate, keeping an exponential moving average of the weights
for evaluation. The EMA copy is taken from the freshly built model."""
import argparse
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F
from accelerate import Accelerator
from torch.utils.data import DataLoader, TensorDataset


class BagOfEmbeddings(nn.Module):
    def __init__(self, vocab=5000, dim=128, num_classes=4):
        super().__init__()
        self.emb = nn.EmbeddingBag(vocab, dim, mode="mean")
        self.fc = nn.Linear(dim, num_classes)

    def forward(self, ids):
        return self.fc(self.emb(ids))


@torch.no_grad()
def ema_update(ema, model, decay):
    for e, p in zip(ema.parameters(), model.parameters()):
        e.mul_(decay).add_(p.detach(), alpha=1 - decay)


def synthetic(n=4096, seq=24, vocab=5000, classes=4):
    ids = torch.randint(0, vocab, (n, seq))
    y = ids[:, 0] % classes
    return TensorDataset(ids, y)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=3)
    parser.add_argument("--decay", type=float, default=0.999)
    args = parser.parse_args()

    accelerator = Accelerator(mixed_precision="no")
    model = BagOfEmbeddings()
    ema = copy.deepcopy(model).eval()  # expect: DEV016
    for p in ema.parameters():
        p.requires_grad_(False)
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
    train_loader = DataLoader(synthetic(), batch_size=64, shuffle=True)
    val_loader = DataLoader(synthetic(512), batch_size=128)
    model, optimizer, train_loader, val_loader = accelerator.prepare(model, optimizer, train_loader, val_loader)

    for epoch in range(args.epochs):
        model.train()
        for ids, y in train_loader:
            loss = F.cross_entropy(model(ids), y)
            optimizer.zero_grad()
            accelerator.backward(loss)
            optimizer.step()
            ema_update(ema, accelerator.unwrap_model(model), args.decay)

        correct = total = 0
        for ids, y in val_loader:
            with torch.no_grad():
                pred = ema(ids).argmax(-1)
            pred, y = accelerator.gather_for_metrics((pred, y))
            correct += (pred == y).sum().item()
            total += y.numel()
        accelerator.print(f"epoch {epoch} ema acc {correct / total:.3f}")


if __name__ == "__main__":
    main()
