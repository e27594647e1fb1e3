"""Imbalanced text classification with a Poly-1 loss: cross entropy plus a per-class epsilon times
(1 - p_t); the epsilons are a registered buffer of the loss module.

Thread: https://github.com/fastai/fastai/pull/3395 (send the loss function to the device when it
is an nn.Module with its own parameters or buffers).
"""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


class PolyLoss(nn.Module):
    def __init__(self, epsilons):
        super().__init__()
        self.register_buffer("eps", torch.tensor(epsilons, dtype=torch.float32))

    def forward(self, logits, target):
        ce = F.cross_entropy(logits, target, reduction="none")
        pt = logits.softmax(-1).gather(1, target[:, None]).squeeze(1)
        return (ce + self.eps[target] * (1 - pt)).mean()


class BagOfWords(nn.Module):
    def __init__(self, vocab=1000, dim=64, classes=3):
        super().__init__()
        self.emb = nn.EmbeddingBag(vocab, dim)
        self.fc = nn.Linear(dim, classes)

    def forward(self, tokens):
        return self.fc(self.emb(tokens))


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = BagOfWords().to(device)
    criterion = PolyLoss([1.0, 2.0, 4.0])  # expect: DEV012
    opt = torch.optim.AdamW(model.parameters(), lr=2e-3)
    tokens = torch.randint(0, 1000, (600, 24))
    labels = torch.multinomial(torch.tensor([0.7, 0.2, 0.1]), 600, replacement=True)
    loader = DataLoader(TensorDataset(tokens, labels), batch_size=32, shuffle=True)
    for epoch in range(3):
        for toks, y in loader:
            toks, y = toks.to(device), y.to(device)
            loss = criterion(model(toks), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
        print(epoch, loss.item())


if __name__ == "__main__":
    main()
