"""Contrastive image-caption fine-tuning (CLIP-style) with a small word-piece tokenizer."""
import os
import random
import tempfile

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset
from transformers import BertTokenizer

COLORS = ["red", "green", "blue", "yellow"]
SHAPES = ["circle", "square", "triangle"]


def build_tokenizer():
    vocab = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]", "a", "an", "of", "photo", "small", "large"]
    vocab += COLORS + SHAPES
    path = os.path.join(tempfile.mkdtemp(), "vocab.txt")
    with open(path, "w") as f:
        f.write("\n".join(vocab))
    return BertTokenizer(vocab_file=path, do_lower_case=True)


class ShapesCaptions(Dataset):
    def __init__(self, n=96):
        self.items = []
        for _ in range(n):
            c, s = random.randrange(len(COLORS)), random.randrange(len(SHAPES))
            img = torch.zeros(3, 16, 16)
            img[c % 3] += 0.5 + 0.1 * s
            img += 0.05 * torch.randn_like(img)
            size = random.choice(["small", "large"])
            self.items.append((img, f"a photo of a {size} {COLORS[c]} {SHAPES[s]}"))

    def __len__(self):
        return len(self.items)

    def __getitem__(self, i):
        return self.items[i]


class DualEncoder(nn.Module):
    def __init__(self, vocab_size, dim=64):
        super().__init__()
        self.image = nn.Sequential(nn.Conv2d(3, 32, 3, 2, 1), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten(),
                                   nn.Linear(32, dim))
        self.tok = nn.Embedding(vocab_size, dim, padding_idx=0)
        self.text_proj = nn.Linear(dim, dim)
        self.logit_scale = nn.Parameter(torch.tensor(2.659))  # ln(1/0.07)

    def encode_text(self, input_ids, attention_mask):
        h = self.tok(input_ids)
        m = attention_mask.unsqueeze(-1).to(h.dtype)
        return self.text_proj((h * m).sum(1) / m.sum(1).clamp(min=1))

    def forward(self, images, input_ids, attention_mask):
        img = F.normalize(self.image(images), dim=-1)
        txt = F.normalize(self.encode_text(input_ids, attention_mask), dim=-1)
        return self.logit_scale.exp() * img @ txt.T


def clip_loss(logits):
    targets = torch.arange(logits.size(0), device=logits.device)
    return (F.cross_entropy(logits, targets) + F.cross_entropy(logits.T, targets)) / 2


def main(epochs=2):
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    tokenizer = build_tokenizer()
    loader = DataLoader(ShapesCaptions(), batch_size=16, shuffle=True, drop_last=True)
    model = DualEncoder(tokenizer.vocab_size).to(device)
    opt = torch.optim.AdamW(model.parameters(), lr=1e-3)

    for epoch in range(epochs):
        for images, captions in loader:
            images = images.to(device)
            enc = tokenizer(list(captions), padding=True, truncation=True, max_length=12, return_tensors="pt")
            attention_mask = enc["attention_mask"]  # expect: DEV020
            enc = enc.to(device)
            logits = model(images, enc["input_ids"], attention_mask)
            loss = clip_loss(logits)
            opt.zero_grad()
            loss.backward()
            opt.step()
            with torch.no_grad():
                model.logit_scale.clamp_(0, 4.6052)
        print(f"epoch {epoch} loss {loss.item():.3f} scale {model.logit_scale.exp().item():.1f}")


if __name__ == "__main__":
    main()
