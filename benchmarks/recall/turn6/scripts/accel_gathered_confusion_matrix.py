"""Image classification with accelerate; at the end of each epoch the predictions gathered
from every process are turned into a confusion matrix with scikit-learn."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from accelerate import Accelerator
from sklearn.metrics import confusion_matrix
from torch.utils.data import DataLoader, TensorDataset


class SmallCNN(nn.Module):
    def __init__(self, n_classes=4):
        super().__init__()
        self.features = nn.Sequential(nn.Conv2d(1, 8, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(4))
        self.head = nn.Linear(8 * 16, n_classes)

    def forward(self, x):
        return self.head(self.features(x).flatten(1))


def main():
    accelerator = Accelerator()
    x = torch.randn(512, 1, 16, 16)
    y = (x.mean((1, 2, 3)) > 0).long() + 2 * (x[:, :, :8].mean((1, 2, 3)) > 0).long()
    train_loader = DataLoader(TensorDataset(x[:400], y[:400]), batch_size=32, shuffle=True)
    eval_loader = DataLoader(TensorDataset(x[400:], y[400:]), batch_size=64)
    model = SmallCNN()
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    model, optimizer, train_loader, eval_loader = accelerator.prepare(model, optimizer, train_loader, eval_loader)

    for epoch in range(3):
        model.train()
        for xb, yb in train_loader:
            loss = F.cross_entropy(model(xb), yb)
            accelerator.backward(loss)
            optimizer.step()
            optimizer.zero_grad()
        model.eval()
        preds, refs = [], []
        for xb, yb in eval_loader:
            with torch.no_grad():
                logits = model(xb)
            p, r = accelerator.gather_for_metrics((logits.argmax(dim=-1), yb))
            preds.append(p)
            refs.append(r)
        cm = confusion_matrix(torch.cat(refs), torch.cat(preds))  # expect: DEV011
        accelerator.print(cm)


if __name__ == "__main__":
    main()
