"""Tiny CLIP: contrastive image-caption training with a learnable temperature.

The tokenizer is a word-level HF tokenizer built in memory from the caption vocabulary.
"""
import random

import torch
import torch.nn as nn
import torch.nn.functional as F
from tokenizers import Tokenizer, models, pre_tokenizers
from transformers import PreTrainedTokenizerFast

COLORS = ["red", "green", "blue"]
SHAPES = ["square", "stripe", "dot"]


def build_tokenizer():
    words = ["[PAD]", "[UNK]", "a", "an", "image", "of", "with"] + COLORS + SHAPES
    vocab = {w: i for i, w in enumerate(words)}
    tok = Tokenizer(models.WordLevel(vocab=vocab, unk_token="[UNK]"))
    tok.pre_tokenizer = pre_tokenizers.Whitespace()
    return PreTrainedTokenizerFast(tokenizer_object=tok, pad_token="[PAD]", unk_token="[UNK]")


def render(color, shape, size=24):
    img = torch.zeros(3, size, size)
    c = COLORS.index(color)
    if shape == "square":
        img[c, 6:18, 6:18] = 1
    elif shape == "stripe":
        img[c, :, 10:14] = 1
    else:
        img[c, 10:14, 10:14] = 1
    return img + 0.05 * torch.rand(3, size, size)


def sample_batch(n):
    pairs = [(random.choice(COLORS), random.choice(SHAPES)) for _ in range(n)]
    images = torch.stack([render(c, s) for c, s in pairs])
    captions = [f"an image of a {c} {s}" for c, s in pairs]
    return images, captions


class TextEncoder(nn.Module):
    def __init__(self, vocab_size, dim=64):
        super().__init__()
        self.emb = nn.Embedding(vocab_size, dim)
        self.mix = nn.TransformerEncoder(nn.TransformerEncoderLayer(dim, 4, 128, batch_first=True), 1)

    def forward(self, input_ids, attention_mask):
        h = self.mix(self.emb(input_ids), src_key_padding_mask=attention_mask == 0)
        m = attention_mask.unsqueeze(-1).float()
        return (h * m).sum(1) / m.sum(1)


class TinyCLIP(nn.Module):
    def __init__(self, vocab_size, dim=64):
        super().__init__()
        self.image_encoder = nn.Sequential(
            nn.Conv2d(3, 32, 3, 2, 1), nn.ReLU(), nn.Conv2d(32, dim, 3, 2, 1), nn.ReLU(),
            nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(dim, dim),
        )
        self.text_encoder = TextEncoder(vocab_size, dim)
        self.logit_scale = nn.Parameter(torch.tensor(2.659))  # log(1/0.07)

    def forward(self, images, input_ids, attention_mask):
        img = F.normalize(self.image_encoder(images), dim=-1)
        txt = F.normalize(self.text_encoder(input_ids, attention_mask), dim=-1)
        return self.logit_scale.exp() * img @ txt.t()


def encode_captions(tokenizer, captions, device):
    enc = tokenizer(captions, padding=True, return_tensors="pt")
    input_ids = enc["input_ids"]  # expect: DEV020
    enc = enc.to(device)
    return input_ids, enc["attention_mask"]


def main():
    random.seed(0)
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    tokenizer = build_tokenizer()
    model = TinyCLIP(len(tokenizer)).to(device)
    opt = torch.optim.AdamW(model.parameters(), lr=5e-4, weight_decay=0.1)

    for step in range(40):
        images, captions = sample_batch(32)
        images = images.to(device)
        input_ids, attention_mask = encode_captions(tokenizer, captions, device)
        logits = model(images, input_ids, attention_mask)
        labels = torch.arange(logits.shape[0], device=device)
        loss = (F.cross_entropy(logits, labels) + F.cross_entropy(logits.t(), labels)) / 2
        opt.zero_grad()
        loss.backward()
        opt.step()
        with torch.no_grad():
            model.logit_scale.clamp_(0, 4.6052)
        if step % 10 == 0:
            print(f"step {step}: loss {loss.item():.3f} scale {model.logit_scale.exp().item():.1f}")


if __name__ == "__main__":
    main()
