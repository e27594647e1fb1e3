"""Export sentence embeddings from a trained encoder to .npy files for a nearest-neighbour index."""
import argparse
import os

import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


class SentenceEncoder(nn.Module):
    def __init__(self, vocab=120, dim=24):
        super().__init__()
        self.emb = nn.EmbeddingBag(vocab, dim, mode="mean")
        self.proj = nn.Linear(dim, dim)

    def forward(self, tokens):
        return nn.functional.normalize(self.proj(self.emb(tokens)), dim=-1)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--out-dir", default="/tmp/recall_embeddings")
    parser.add_argument("--batch-size", type=int, default=16)
    args = parser.parse_args()
    os.makedirs(args.out_dir, exist_ok=True)

    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    encoder = SentenceEncoder().to(device).eval()
    corpus = torch.randint(0, 120, (40, 15))
    loader = DataLoader(TensorDataset(corpus, torch.arange(len(corpus))), batch_size=args.batch_size)

    with torch.no_grad():
        for shard, (tokens, ids) in enumerate(loader):
            emb = encoder(tokens.to(device))
            np.save(os.path.join(args.out_dir, f"emb_{shard:04d}.npy"), emb.numpy())  # expect: DEV011
            np.save(os.path.join(args.out_dir, f"ids_{shard:04d}.npy"), ids.numpy())
    print("wrote", len(os.listdir(args.out_dir)), "files to", args.out_dir)


if __name__ == "__main__":
    main()
