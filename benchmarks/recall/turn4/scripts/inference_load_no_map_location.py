"""Command-line inference for a sentiment classifier trained on a GPU box, meant to run anywhere."""
import os
import sys

import torch
import torch.nn as nn

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")


class BagOfWords(nn.Module):
    def __init__(self, vocab=5000, d=64):
        super().__init__()
        self.emb = nn.EmbeddingBag(vocab, d)
        self.out = nn.Linear(d, 2)

    def forward(self, ids, offsets):
        return self.out(self.emb(ids, offsets))


def main(path):
    if not os.path.exists(path):
        torch.save({"config": {"vocab": 5000, "d": 64}, "state_dict": BagOfWords().state_dict()}, path)
    checkpoint = torch.load(path)  # expect: DEV008
    model = BagOfWords(**checkpoint["config"])
    model.load_state_dict(checkpoint["state_dict"])
    model.to(device).eval()
    words = sys.argv[2:] or ["great", "movie"]
    ids = torch.tensor([hash(w) % 5000 for w in words], device=device)
    with torch.no_grad():
        print(model(ids, torch.tensor([0], device=device)).softmax(-1).tolist())


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "sentiment.pt")
