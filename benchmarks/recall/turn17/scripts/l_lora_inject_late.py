"""Hand-rolled LoRA fine-tuning of a small pretrained transformer classifier.

The base weights are frozen; q_proj / v_proj in every attention block get a
low-rank update B @ A scaled by alpha / r. Only the adapters and the
classifier head are trained, and only they are saved.
"""
import argparse
import math
import os

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


class Attention(nn.Module):
    def __init__(self, dim, n_heads):
        super().__init__()
        self.n_heads = n_heads
        self.q_proj = nn.Linear(dim, dim)
        self.k_proj = nn.Linear(dim, dim)
        self.v_proj = nn.Linear(dim, dim)
        self.o_proj = nn.Linear(dim, dim)

    def forward(self, x, pad_mask):
        B, T, C = x.shape
        h = self.n_heads
        q = self.q_proj(x).view(B, T, h, -1).transpose(1, 2)
        k = self.k_proj(x).view(B, T, h, -1).transpose(1, 2)
        v = self.v_proj(x).view(B, T, h, -1).transpose(1, 2)
        attn_mask = pad_mask[:, None, None, :]  # True = attend
        out = F.scaled_dot_product_attention(q, k, v, attn_mask=attn_mask)
        return self.o_proj(out.transpose(1, 2).reshape(B, T, C))


class EncoderLayer(nn.Module):
    def __init__(self, dim, n_heads):
        super().__init__()
        self.attn = Attention(dim, n_heads)
        self.ln1, self.ln2 = nn.LayerNorm(dim), nn.LayerNorm(dim)
        self.ff = nn.Sequential(nn.Linear(dim, 2 * dim), nn.GELU(), nn.Linear(2 * dim, dim))

    def forward(self, x, pad_mask):
        x = x + self.attn(self.ln1(x), pad_mask)
        return x + self.ff(self.ln2(x))


class TextClassifier(nn.Module):
    def __init__(self, vocab=500, dim=64, n_heads=4, n_layers=2, n_classes=2, max_len=32):
        super().__init__()
        self.embed = nn.Embedding(vocab, dim, padding_idx=0)
        self.pos = nn.Parameter(torch.zeros(1, max_len, dim))
        self.layers = nn.ModuleList(EncoderLayer(dim, n_heads) for _ in range(n_layers))
        self.classifier = nn.Linear(dim, n_classes)

    def forward(self, ids):
        pad_mask = ids != 0
        x = self.embed(ids) + self.pos[:, : ids.size(1)]
        for layer in self.layers:
            x = layer(x, pad_mask)
        pooled = (x * pad_mask.unsqueeze(-1)).sum(1) / pad_mask.sum(1, keepdim=True)
        return self.classifier(pooled)


class LoRALinear(nn.Module):
    def __init__(self, base: nn.Linear, r=8, alpha=16, dropout=0.05):
        super().__init__()
        self.base = base
        self.scaling = alpha / r
        self.lora_A = nn.Parameter(torch.empty(r, base.in_features))
        self.lora_B = nn.Parameter(torch.zeros(base.out_features, r))
        nn.init.kaiming_uniform_(self.lora_A, a=math.sqrt(5))
        self.dropout = nn.Dropout(dropout)

    def forward(self, x):
        return self.base(x) + (self.dropout(x) @ self.lora_A.T @ self.lora_B.T) * self.scaling


def inject_lora(model, targets=("q_proj", "v_proj"), r=8, alpha=16):
    replaced = 0
    for module in list(model.modules()):
        for name, child in list(module.named_children()):
            if name in targets and isinstance(child, nn.Linear):
                setattr(module, name, LoRALinear(child, r=r, alpha=alpha))  # expect: DEV015
                replaced += 1
    return replaced


def toy_sentiment(n, seed):
    g = torch.Generator().manual_seed(seed)
    ids = torch.randint(3, 500, (n, 32), generator=g)
    lengths = torch.randint(8, 33, (n,), generator=g)
    ids[torch.arange(32)[None, :] >= lengths[:, None]] = 0
    labels = ((ids >= 250) & (ids > 0)).sum(1) > (ids > 0).sum(1) // 2
    return TensorDataset(ids, labels.long())


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--base", default="base_classifier.pt")
    ap.add_argument("--rank", type=int, default=8)
    ap.add_argument("--epochs", type=int, default=3)
    ap.add_argument("--out", default="lora_adapters.pt")
    args = ap.parse_args()
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")

    model = TextClassifier()
    if os.path.exists(args.base):
        model.load_state_dict(torch.load(args.base, map_location="cpu"))
    model.to(device)

    for p in model.parameters():
        p.requires_grad_(False)
    n = inject_lora(model, r=args.rank)
    for p in model.classifier.parameters():
        p.requires_grad_(True)
    trainable = [p for p in model.parameters() if p.requires_grad]
    print(f"wrapped {n} linears, {sum(p.numel() for p in trainable)} trainable params")

    opt = torch.optim.AdamW(trainable, lr=2e-3)
    loader = DataLoader(toy_sentiment(480, 0), batch_size=32, shuffle=True)
    for epoch in range(args.epochs):
        model.train()
        correct = total = 0
        for ids, labels in loader:
            ids, labels = ids.to(device), labels.to(device)
            logits = model(ids)
            loss = F.cross_entropy(logits, labels)
            opt.zero_grad()
            loss.backward()
            opt.step()
            correct += (logits.argmax(-1) == labels).sum().item()
            total += labels.numel()
        print(f"epoch {epoch}: loss {loss.item():.4f} train acc {correct / total:.3f}")

    adapters = {k: v.cpu() for k, v in model.state_dict().items() if "lora_" in k or k.startswith("classifier")}
    torch.save(adapters, args.out)


if __name__ == "__main__":
    main()
