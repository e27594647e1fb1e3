"""CLIP-style image/caption contrastive training with a small BERT text tower.

The tokenizer is a word-level one built in memory from the caption vocabulary.
"""
import math
import random
from dataclasses import dataclass

import torch
import torch.nn as nn
import torch.nn.functional as F
from tokenizers import Tokenizer, models, pre_tokenizers
from transformers import BertConfig, BertModel, PreTrainedTokenizerFast

COLOURS = ["red", "green", "blue"]
SHAPES = ["square", "bar", "dot"]


@dataclass
class TrainConfig:
    embed_dim: int = 32
    new_proj_dim: int = 48
    reinit_text_head: bool = True
    batch_size: int = 16
    steps: int = 30
    lr: float = 5e-4


def build_tokenizer():
    words = ["[PAD]", "[UNK]", "a", "an", "image", "of", "small"] + COLOURS + SHAPES
    tok = Tokenizer(models.WordLevel({w: i for i, w in enumerate(words)}, unk_token="[UNK]"))
    tok.pre_tokenizer = pre_tokenizers.Whitespace()
    return PreTrainedTokenizerFast(tokenizer_object=tok, pad_token="[PAD]", unk_token="[UNK]")


def render(colour, shape, size=32):
    img = torch.zeros(3, size, size)
    c = COLOURS.index(colour)
    if shape == "square":
        img[c, 8:24, 8:24] = 1
    elif shape == "bar":
        img[c, 14:18, 2:30] = 1
    else:
        img[c, 13:19, 13:19] = 1
    return img + 0.05 * torch.randn_like(img)


def sample_batch(n):
    pairs = [(random.choice(COLOURS), random.choice(SHAPES)) for _ in range(n)]
    imgs = torch.stack([render(c, s) for c, s in pairs])
    caps = [f"an image of a small {c} {s}" for c, s in pairs]
    return imgs, caps


class DualEncoder(nn.Module):
    def __init__(self, tokenizer, embed_dim):
        super().__init__()
        self.tokenizer = tokenizer
        self.image_encoder = nn.Sequential(
            nn.Conv2d(3, 32, 3, 2, 1), nn.ReLU(), nn.Conv2d(32, 64, 3, 2, 1), nn.ReLU(),
            nn.AdaptiveAvgPool2d(1), nn.Flatten())
        cfg = BertConfig(vocab_size=tokenizer.vocab_size, hidden_size=64, num_hidden_layers=2,
                         num_attention_heads=4, intermediate_size=128, max_position_embeddings=32)
        self.text_encoder = BertModel(cfg)
        self.image_proj = nn.Linear(64, embed_dim)
        self.text_proj = nn.Linear(64, embed_dim)
        self.logit_scale = nn.Parameter(torch.tensor(math.log(1 / 0.07)))

    def encode_text(self, captions, device):
        enc = self.tokenizer(captions, padding=True, truncation=True, max_length=16, return_tensors="pt")
        mask = enc["attention_mask"]  # expect: DEV020
        enc = enc.to(device)
        hidden = self.text_encoder(**enc).last_hidden_state
        pooled = (hidden * mask.unsqueeze(-1)).sum(1) / mask.sum(1, keepdim=True)
        return F.normalize(self.text_proj(pooled), dim=-1)

    def encode_image(self, images):
        return F.normalize(self.image_proj(self.image_encoder(images)), dim=-1)


def clip_loss(img_emb, txt_emb, logit_scale):
    logits = logit_scale.exp().clamp(max=100) * img_emb @ txt_emb.t()
    targets = torch.arange(logits.shape[0], device=logits.device)
    return (F.cross_entropy(logits, targets) + F.cross_entropy(logits.t(), targets)) / 2


def main():
    cfg = TrainConfig()
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    tokenizer = build_tokenizer()
    model = DualEncoder(tokenizer, cfg.embed_dim)
    model.to(device)

    if cfg.reinit_text_head:
        # wider shared space: new heads on both towers
        model.image_proj = nn.Linear(64, cfg.new_proj_dim).to(device)
        model.text_proj = nn.Linear(64, cfg.new_proj_dim)  # expect: DEV015

    opt = torch.optim.AdamW(model.parameters(), lr=cfg.lr, weight_decay=0.01)
    for step in range(cfg.steps):
        imgs, caps = sample_batch(cfg.batch_size)
        img_emb = model.encode_image(imgs.to(device))
        txt_emb = model.encode_text(caps, device)
        loss = clip_loss(img_emb, txt_emb, model.logit_scale)
        opt.zero_grad()
        loss.backward()
        opt.step()
        if step % 10 == 0:
            print(f"step {step} loss {loss.item():.3f} scale {model.logit_scale.exp().item():.2f}")


if __name__ == "__main__":
    main()
