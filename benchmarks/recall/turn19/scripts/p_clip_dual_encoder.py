"""Tiny CLIP-style dual encoder on synthetic image/caption pairs.

    python p_clip_dual_encoder.py --epochs 2 --batch-size 16
    python p_clip_dual_encoder.py --no-cuda
"""
import argparse
import math

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset


class PairDataset(Dataset):
    def __init__(self, n=96, vocab=50, seq_len=10, img_size=32, seed=0):
        g = torch.Generator().manual_seed(seed)
        self.images = torch.rand(n, 3, img_size, img_size, generator=g)
        self.tokens = torch.randint(1, vocab, (n, seq_len), generator=g)

    def __len__(self):
        return len(self.images)

    def __getitem__(self, i):
        return self.images[i], self.tokens[i]


class ImageEncoder(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.conv = nn.Sequential(
            nn.Conv2d(3, 16, 3, stride=2, padding=1), nn.GELU(),
            nn.Conv2d(16, 32, 3, stride=2, padding=1), nn.GELU(),
            nn.AdaptiveAvgPool2d(1),
        )
        self.proj = nn.Linear(32, dim)

    def forward(self, x):
        return self.proj(self.conv(x).flatten(1))


class TextEncoder(nn.Module):
    def __init__(self, vocab, dim):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim)
        layer = nn.TransformerEncoderLayer(dim, nhead=4, dim_feedforward=2 * dim, batch_first=True)
        self.enc = nn.TransformerEncoder(layer, num_layers=1)

    def forward(self, tokens):
        return self.enc(self.emb(tokens)).mean(dim=1)


class DualEncoder(nn.Module):
    def __init__(self, vocab, dim=64):
        super().__init__()
        self.image = ImageEncoder(dim)
        self.text = TextEncoder(vocab, dim)
        self.logit_scale = nn.Parameter(torch.tensor(math.log(1 / 0.07)))

    def encode_image(self, images):
        return F.normalize(self.image(images), dim=-1)

    def encode_text(self, tokens):
        return F.normalize(self.text(tokens), dim=-1)

    def forward(self, images, tokens):
        img = self.encode_image(images)
        txt = self.encode_text(tokens)
        return self.logit_scale.exp() * img @ txt.t()


def clip_loss(logits):
    # the i-th image belongs to the i-th caption
    targets = torch.arange(logits.size(0))  # expect: DEV006
    return (F.cross_entropy(logits, targets) + F.cross_entropy(logits.t(), targets)) / 2


@torch.no_grad()
def recall_at_k(model, loader, device, k=5):
    model.eval()
    img_embs, txt_embs = [], []
    for images, tokens in loader:
        img_embs.append(model.encode_image(images.to(device)))
        txt_embs.append(model.encode_text(tokens.to(device)))
    sim = torch.cat(img_embs) @ torch.cat(txt_embs).t()
    topk = sim.topk(k, dim=1).indices.numpy()  # expect: DEV011
    hits = (topk == np.arange(len(topk))[:, None]).any(axis=1)
    return float(hits.mean())


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=2)
    parser.add_argument("--batch-size", type=int, default=16)
    parser.add_argument("--lr", type=float, default=3e-4)
    parser.add_argument("--no-cuda", action="store_true")
    args = parser.parse_args()

    use_cuda = not args.no_cuda and torch.cuda.is_available()
    device = torch.device("cuda" if use_cuda else "cpu")

    train_loader = DataLoader(PairDataset(seed=0), batch_size=args.batch_size, shuffle=True, drop_last=True)
    val_loader = DataLoader(PairDataset(n=48, seed=1), batch_size=args.batch_size)

    model = DualEncoder(vocab=50).to(device)
    optimizer = torch.optim.AdamW(model.parameters(), lr=args.lr, weight_decay=0.1)

    for epoch in range(args.epochs):
        model.train()
        for step, (images, tokens) in enumerate(train_loader):
            images = images.to(device)
            tokens = tokens.to(device)
            logits = model(images, tokens)
            loss = clip_loss(logits)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            with torch.no_grad():
                model.logit_scale.clamp_(0, math.log(100))
        r5 = recall_at_k(model, val_loader, device)
        print(f"epoch {epoch}: loss {loss.item():.3f}  R@5 {r5:.3f}")


if __name__ == "__main__":
    main()
