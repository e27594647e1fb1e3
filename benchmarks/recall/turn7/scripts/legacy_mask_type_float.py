"""Masked mean pooling in an older text classifier: the padding mask is cast with a legacy
tensor type before it weighs the embeddings."""
import torch
import torch.nn as nn


class MeanPoolClassifier(nn.Module):
    def __init__(self, vocab=100, d=32, n_classes=3):
        super().__init__()
        self.emb = nn.Embedding(vocab, d, padding_idx=0)
        self.out = nn.Linear(d, n_classes)

    def forward(self, ids):
        mask = (ids != 0).type(torch.FloatTensor)  # expect: DEV021
        h = (self.emb(ids) * mask.unsqueeze(-1)).sum(1) / mask.sum(1, keepdim=True).clamp(min=1)
        return self.out(h)


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = MeanPoolClassifier().to(device)
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    for _ in range(10):
        ids = torch.randint(0, 100, (16, 12)).to(device)
        y = (ids[:, 0] % 3).to(device)
        loss = nn.functional.cross_entropy(model(ids), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(loss.item())


if __name__ == "__main__":
    main()
