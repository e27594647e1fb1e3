"""Fine-tune a small CLIP-style model for a few steps, save it, reload it and run
zero-shot classification with one text prompt per class.

    python p_clip_zero_shot_eval.py --ckpt /tmp/p_clip_zs.pt
"""
import argparse

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

CLASSNAMES = ["circle", "square", "stripe", "noise"]
VOCAB = ["<pad>", "a", "photo", "of", "the"] + CLASSNAMES


def tokenize(texts, max_len=6):
    ids = torch.zeros(len(texts), max_len, dtype=torch.long)
    for i, t in enumerate(texts):
        toks = [VOCAB.index(w) for w in t.split()][:max_len]
        ids[i, : len(toks)] = torch.tensor(toks)
    return ids


def make_images(n, seed):
    g = torch.Generator().manual_seed(seed)
    y = torch.randint(0, len(CLASSNAMES), (n,), generator=g)
    x = torch.rand(n, 3, 24, 24, generator=g) * 0.2
    yy, xx = torch.meshgrid(torch.arange(24.0), torch.arange(24.0), indexing="ij")
    for i, c in enumerate(y.tolist()):
        if c == 0:
            x[i] += (((yy - 12) ** 2 + (xx - 12) ** 2) < 40).float()
        elif c == 1:
            x[i, :, 6:18, 6:18] += 1.0
        elif c == 2:
            x[i, :, ::4] += 1.0
        else:
            x[i] += torch.rand(3, 24, 24, generator=g)
    return x.clamp(0, 1), y


class MiniCLIP(nn.Module):
    def __init__(self, dim=32):
        super().__init__()
        self.register_buffer("pixel_mean", torch.tensor([0.481, 0.458, 0.408]).view(1, 3, 1, 1))
        self.register_buffer("pixel_std", torch.tensor([0.269, 0.261, 0.276]).view(1, 3, 1, 1))
        self.visual = nn.Sequential(
            nn.Conv2d(3, 16, 3, 2, 1), nn.ReLU(), nn.Conv2d(16, 32, 3, 2, 1), nn.ReLU(),
            nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(32, dim),
        )
        self.token_embedding = nn.Embedding(len(VOCAB), dim, padding_idx=0)
        self.text_proj = nn.Linear(dim, dim)
        # fixed softmax temperature, as in the zero-shot evaluation protocol
        self.temperature = torch.tensor(0.07)

    def encode_image(self, images):
        images = (images - self.pixel_mean) / self.pixel_std
        return F.normalize(self.visual(images), dim=-1)

    def encode_text(self, ids):
        mask = ids.ne(0).unsqueeze(-1).float()
        pooled = (self.token_embedding(ids) * mask).sum(1) / mask.sum(1).clamp(min=1)
        return F.normalize(self.text_proj(pooled), dim=-1)

    def forward(self, images, ids):
        return self.encode_image(images) @ self.encode_text(ids).t() / self.temperature


def contrastive_loss(logits):
    labels = torch.arange(logits.size(0), device=logits.device)
    return (F.cross_entropy(logits, labels) + F.cross_entropy(logits.t(), labels)) / 2


def finetune(model, device, steps=40):
    x, y = make_images(256, seed=0)
    captions = tokenize([f"a photo of the {CLASSNAMES[c]}" for c in y.tolist()])
    loader = DataLoader(TensorDataset(x, captions), batch_size=32, shuffle=True)
    opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
    step = 0
    while step < steps:
        for images, ids in loader:
            logits = model(images.to(device), ids.to(device))
            loss = contrastive_loss(logits)
            opt.zero_grad()
            loss.backward()
            opt.step()
            step += 1
            if step >= steps:
                break
    return loss.item()


@torch.no_grad()
def zero_shot(model, device):
    model.eval()
    prompts = tokenize([f"a photo of the {c}" for c in CLASSNAMES]).to(device)
    class_emb = model.encode_text(prompts)
    x, y = make_images(128, seed=1)
    preds = []
    for images in x.split(32):
        logits = model.encode_image(images.to(device)) @ class_emb.t() / model.temperature
        preds.append(logits.argmax(-1).cpu())
    preds = torch.cat(preds).numpy()
    confusion = np.zeros((len(CLASSNAMES), len(CLASSNAMES)), dtype=int)
    np.add.at(confusion, (y.numpy(), preds), 1)
    return (preds == y.numpy()).mean(), confusion


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--ckpt", default="/tmp/p_clip_zs.pt")
    args = ap.parse_args()
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")

    model = MiniCLIP().to(device)
    print("fine-tune loss", round(finetune(model, device), 3))
    torch.save(model.state_dict(), args.ckpt)

    fresh = MiniCLIP()
    fresh.load_state_dict(torch.load(args.ckpt, map_location="cpu"))
    fresh.to(device)
    acc, confusion = zero_shot(fresh, device)
    print(f"zero-shot accuracy {acc:.3f}")
    print(confusion)


if __name__ == "__main__":
    main()
