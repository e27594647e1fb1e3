"""Weighted NLL loss for a text classifier: the weight tensor is created on the training device."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


class BagOfEmbeddings(nn.Module):
    def __init__(self, vocab=80, dim=24, n_classes=3):
        super().__init__()
        self.embedding = nn.EmbeddingBag(vocab, dim, mode="mean")
        self.fc = nn.Linear(dim, n_classes)

    def forward(self, tokens):
        return F.log_softmax(self.fc(self.embedding(tokens)), dim=1)


device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
tokens = torch.randint(0, 80, (36, 10))
labels = torch.tensor([0] * 24 + [1] * 8 + [2] * 4)
freq = torch.bincount(labels, minlength=3).float()
weights = (1.0 / freq) / (1.0 / freq).sum()

model = BagOfEmbeddings().to(device)
criterion = nn.NLLLoss(weight=weights.to(device))
aux_criterion = nn.CrossEntropyLoss(weight=torch.tensor([1.0, 2.0, 4.0]), label_smoothing=0.05).to(device)
optimizer = torch.optim.Adam(model.parameters(), lr=5e-3)
loader = DataLoader(TensorDataset(tokens, labels), batch_size=12, shuffle=True)

for epoch in range(2):
    for x, y in loader:
        x, y = x.to(device), y.to(device)
        log_probs = model(x)
        loss = criterion(log_probs, y) + 0.1 * aux_criterion(log_probs, y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    print(f"epoch {epoch} loss {loss.item():.4f}")
