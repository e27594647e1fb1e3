"""Fine-tuning with accelerate; the validation loader is built later and never passed to prepare()."""
import torch
import torch.nn as nn
from accelerate import Accelerator
from torch.utils.data import DataLoader, TensorDataset


class TextCNN(nn.Module):
    def __init__(self, vocab=5000, dim=128, n_classes=4):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim, padding_idx=0)
        self.convs = nn.ModuleList([nn.Conv1d(dim, 64, k) for k in (3, 4, 5)])
        self.fc = nn.Linear(3 * 64, n_classes)

    def forward(self, ids):
        h = self.emb(ids).transpose(1, 2)
        h = torch.cat([conv(h).relu().amax(-1) for conv in self.convs], dim=1)
        return self.fc(h)


def synthetic(n):
    return TensorDataset(torch.randint(1, 5000, (n, 40)), torch.randint(0, 4, (n,)))


def evaluate(model, loader):
    model.eval()
    correct = total = 0
    with torch.no_grad():
        for ids, labels in loader:
            logits = model(ids)  # expect: DEV002
            correct += (logits.argmax(-1).cpu() == labels).sum().item()
            total += labels.numel()
    return correct / total


def main():
    accelerator = Accelerator()
    train_loader = DataLoader(synthetic(4096), batch_size=32, shuffle=True)
    model = TextCNN()
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    model, optimizer, train_loader = accelerator.prepare(model, optimizer, train_loader)
    val_loader = DataLoader(synthetic(512), batch_size=64)
    loss_fn = nn.CrossEntropyLoss()
    for epoch in range(2):
        model.train()
        for ids, labels in train_loader:
            loss = loss_fn(model(ids), labels)
            accelerator.backward(loss)
            optimizer.step()
            optimizer.zero_grad()
        acc = evaluate(model, val_loader)
        accelerator.print(f"epoch {epoch} val acc {acc:.3f}")


if __name__ == "__main__":
    main()
