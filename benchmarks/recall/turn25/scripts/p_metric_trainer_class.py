"""A small trainer class for an emotion classifier on precomputed utterance
embeddings, tracking torchmetrics accuracy / macro-F1 on the validation set and
a calibration histogram of the confidences.
"""
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset
from torchmetrics.classification import MulticlassAccuracy, MulticlassCalibrationError, MulticlassF1Score


class EmotionTrainer:
    def __init__(self, model, num_classes, device, lr=1e-3):
        self.device = device
        self.model = model.to(device)
        self.optimizer = torch.optim.AdamW(self.model.parameters(), lr=lr)
        self.val_acc = MulticlassAccuracy(num_classes=num_classes).to(device)
        self.val_f1 = MulticlassF1Score(num_classes=num_classes, average="macro")  # expect: DEV019
        self.val_ece = MulticlassCalibrationError(num_classes=num_classes, n_bins=10).to(device)

    def train_epoch(self, loader):
        self.model.train()
        total = 0.0
        for emb, y in loader:
            emb, y = emb.to(self.device), y.to(self.device)
            loss = F.cross_entropy(self.model(emb), y)
            self.optimizer.zero_grad()
            loss.backward()
            self.optimizer.step()
            total += loss.item()
        return total / len(loader)

    @torch.no_grad()
    def validate(self, loader):
        self.model.eval()
        for emb, y in loader:
            emb, y = emb.to(self.device), y.to(self.device)
            with torch.autocast(self.device.type, enabled=self.device.type == "cuda"):
                logits = self.model(emb)
            self.val_acc.update(logits, y)
            self.val_f1.update(logits, y)
            # half-precision logits under autocast: back to fp32 for the calibration bins
            probs = F.softmax(logits, dim=-1).type(torch.FloatTensor)  # expect: DEV021
            self.val_ece.update(probs, y)
        out = {"acc": self.val_acc.compute().item(), "f1": self.val_f1.compute().item(),
               "ece": self.val_ece.compute().item()}
        for m in (self.val_acc, self.val_f1, self.val_ece):
            m.reset()
        return out


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=3)
    parser.add_argument("--no-cuda", action="store_true")
    args = parser.parse_args()
    device = torch.device("cuda" if torch.cuda.is_available() and not args.no_cuda else "cpu")

    classes, dim = 6, 40
    x = torch.randn(600, dim)
    y = (x[:, :classes] + 0.5 * torch.randn(600, classes)).argmax(1)
    train = DataLoader(TensorDataset(x[:480], y[:480]), batch_size=32, shuffle=True)
    val = DataLoader(TensorDataset(x[480:], y[480:]), batch_size=60)

    model = nn.Sequential(nn.Linear(dim, 64), nn.ReLU(), nn.Dropout(0.1), nn.Linear(64, classes))
    trainer = EmotionTrainer(model, classes, device)
    for epoch in range(args.epochs):
        loss = trainer.train_epoch(train)
        print(f"epoch {epoch}: loss {loss:.3f} " + " ".join(f"{k}={v:.3f}" for k, v in trainer.validate(val).items()))


if __name__ == "__main__":
    main()
