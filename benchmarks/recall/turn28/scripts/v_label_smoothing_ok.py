"""Text-topic classifier (bag of embeddings) with a hand-written label-smoothing
cross-entropy; the loader yields dict batches."""
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset


class LabelSmoothingCE(nn.Module):
    def __init__(self, n_classes, smoothing=0.1):
        super().__init__()
        self.n_classes, self.smoothing = n_classes, smoothing

    def forward(self, logits, target):
        logp = F.log_softmax(logits, dim=-1)
        with torch.no_grad():
            true_dist = torch.full_like(logits, self.smoothing / (self.n_classes - 1))
            true_dist.scatter_(1, target.unsqueeze(1), 1.0 - self.smoothing)
        return torch.sum(-true_dist * logp, dim=-1).mean()


class TopicData(Dataset):
    def __init__(self, n, vocab, n_classes, seq_len=20, seed=0):
        g = torch.Generator().manual_seed(seed)
        self.labels = torch.randint(0, n_classes, (n,), generator=g)
        noise = torch.randint(0, vocab, (n, seq_len), generator=g)
        self.ids = torch.where(torch.rand(n, seq_len, generator=g) < 0.3, self.labels[:, None] * 7 % vocab, noise)

    def __len__(self):
        return len(self.labels)

    def __getitem__(self, i):
        return {"input_ids": self.ids[i], "labels": self.labels[i]}


class BagClassifier(nn.Module):
    def __init__(self, vocab, n_classes, d=64):
        super().__init__()
        self.emb = nn.EmbeddingBag(vocab, d)
        self.out = nn.Linear(d, n_classes)

    def forward(self, input_ids):
        return self.out(self.emb(input_ids))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=3)
    parser.add_argument("--smoothing", type=float, default=0.1)
    parser.add_argument("--no-cuda", action="store_true")
    args = parser.parse_args()
    use_cuda = torch.cuda.is_available() and not args.no_cuda
    device = torch.device("cuda" if use_cuda else "cpu")

    vocab, n_classes = 300, 6
    loader = DataLoader(TopicData(900, vocab, n_classes), batch_size=32, shuffle=True, pin_memory=use_cuda)
    model = BagClassifier(vocab, n_classes).to(device)
    criterion = LabelSmoothingCE(n_classes, args.smoothing)
    opt = torch.optim.Adam(model.parameters(), lr=5e-3)
    for epoch in range(args.epochs):
        for batch in loader:
            batch = {k: v.to(device) for k, v in batch.items()}
            labels = batch.pop("labels")
            logits = model(**batch)
            loss = criterion(logits, labels)
            opt.zero_grad()
            loss.backward()
            opt.step()
        print(f"epoch {epoch}: loss {loss.item():.4f}")


if __name__ == "__main__":
    main()
