"""Export of sentence-encoder embeddings for a retrieval index: each batch is encoded, the
results concatenated and written with np.save."""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


class BagEncoder(nn.Module):
    def __init__(self, vocab=200, d=32):
        super().__init__()
        self.emb = nn.EmbeddingBag(vocab, d, mode="mean")
        self.proj = nn.Linear(d, d)

    def forward(self, ids):
        return F.normalize(self.proj(self.emb(ids)), dim=-1)


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    enc = BagEncoder().to(device).eval()
    corpus = torch.randint(0, 200, (120, 10))
    chunks = []
    with torch.no_grad():
        for i in range(0, 120, 40):
            chunks.append(enc(corpus[i:i + 40].to(device)))
    emb = torch.cat(chunks)
    np.save("index.npy", emb)  # expect: DEV011
    print(emb.shape)


if __name__ == "__main__":
    main()
