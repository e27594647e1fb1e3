"""Train the dual encoder with accelerate and report retrieval recall after each epoch."""
import torch
import torch.nn.functional as F
from accelerate import Accelerator

from data import build_loaders
from evaluate import evaluate
from model import DualEncoder


def main(epochs=3):
    accelerator = Accelerator(mixed_precision="bf16")
    train_loader, val_loader = build_loaders()
    model = DualEncoder()
    optimizer = torch.optim.AdamW(model.parameters(), lr=2e-4, weight_decay=0.1)
    model, optimizer, train_loader = accelerator.prepare(model, optimizer, train_loader)
    for epoch in range(epochs):
        model.train()
        for feats, captions in train_loader:
            zi, zt, scale = model(feats, captions)
            logits = scale * zi @ zt.T
            targets = torch.arange(logits.size(0), device=accelerator.device)
            loss = (F.cross_entropy(logits, targets) + F.cross_entropy(logits.T, targets)) / 2
            accelerator.backward(loss)
            optimizer.step()
            optimizer.zero_grad()
        metrics = evaluate(accelerator, model, val_loader)
        accelerator.print(epoch, metrics)


if __name__ == "__main__":
    main()
