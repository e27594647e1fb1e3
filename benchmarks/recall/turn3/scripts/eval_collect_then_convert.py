"""Evaluation of a text classifier: logits collected in a list during the loop, converted after it."""
import numpy as np
import torch
import torch.nn as nn
from sklearn.metrics import f1_score
from torch.utils.data import DataLoader, TensorDataset


class BagOfEmbeddings(nn.Module):
    def __init__(self, vocab=3000, dim=64, n_classes=5):
        super().__init__()
        self.emb = nn.EmbeddingBag(vocab, dim, mode="mean")
        self.fc = nn.Linear(dim, n_classes)

    def forward(self, ids):
        return self.fc(self.emb(ids))


@torch.no_grad()
def evaluate(model, loader, device):
    model.eval()
    all_logits, all_labels = [], []
    for ids, labels in loader:
        all_logits.append(model(ids.to(device)))
        all_labels.append(labels)
    logits = torch.cat(all_logits)
    preds = np.argmax(logits.numpy(), axis=1)  # expect: DEV011
    labels = torch.cat(all_labels).numpy()
    return f1_score(labels, preds, average="macro")


if __name__ == "__main__":
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = BagOfEmbeddings().to(device)
    data = TensorDataset(torch.randint(0, 3000, (400, 30)), torch.randint(0, 5, (400,)))
    print(evaluate(model, DataLoader(data, batch_size=50), device))
