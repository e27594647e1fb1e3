"""LoRA fine-tuning of a small pretrained-style encoder for sentiment.

Only the low-rank adapters on the attention projections (and the classifier)
are trained; the rest of the encoder is frozen.
"""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset


class SelfAttention(nn.Module):
    def __init__(self, d, n_head):
        super().__init__()
        self.n_head = n_head
        self.q_proj = nn.Linear(d, d)
        self.k_proj = nn.Linear(d, d)
        self.v_proj = nn.Linear(d, d)
        self.o_proj = nn.Linear(d, d)

    def forward(self, x, key_padding_mask):
        B, T, D = x.shape
        split = lambda t: t.view(B, T, self.n_head, D // self.n_head).transpose(1, 2)
        q, k, v = split(self.q_proj(x)), split(self.k_proj(x)), split(self.v_proj(x))
        att = (q @ k.transpose(-2, -1)) / math.sqrt(D // self.n_head)
        att = att.masked_fill(key_padding_mask[:, None, None, :], float("-inf"))
        y = att.softmax(-1) @ v
        return self.o_proj(y.transpose(1, 2).reshape(B, T, D))


class Encoder(nn.Module):
    def __init__(self, vocab=1000, d=64, n_head=4, n_layer=2, n_cls=2):
        super().__init__()
        self.embed = nn.Embedding(vocab, d, padding_idx=0)
        self.attn = nn.ModuleList(SelfAttention(d, n_head) for _ in range(n_layer))
        self.norms = nn.ModuleList(nn.LayerNorm(d) for _ in range(n_layer))
        self.classifier = nn.Linear(d, n_cls)

    def forward(self, input_ids, attention_mask):
        pad = attention_mask == 0
        h = self.embed(input_ids)
        for attn, norm in zip(self.attn, self.norms):
            h = norm(h + attn(h, pad))
        return self.classifier(h[:, 0])


class LoRALinear(nn.Module):
    def __init__(self, base: nn.Linear, r=8, alpha=16):
        super().__init__()
        self.base = base
        self.scaling = alpha / r
        self.lora_A = nn.Parameter(torch.randn(r, base.in_features) / math.sqrt(r))
        self.lora_B = nn.Parameter(torch.zeros(base.out_features, r))

    def forward(self, x):
        return self.base(x) + (x @ self.lora_A.t() @ self.lora_B.t()) * self.scaling


def inject_lora(model, targets=("q_proj", "v_proj"), r=8, alpha=16):
    for module in list(model.modules()):
        for name, child in list(module.named_children()):
            if name in targets and isinstance(child, nn.Linear):
                setattr(module, name, LoRALinear(child, r, alpha))  # expect: DEV015
    for n, p in model.named_parameters():
        p.requires_grad = "lora_" in n or n.startswith("classifier")


class ReviewDataset(Dataset):
    def __init__(self, n=200, seq_len=24, seed=0):
        g = torch.Generator().manual_seed(seed)
        self.ids = torch.randint(1, 1000, (n, seq_len), generator=g)
        self.labels = (self.ids[:, 1] > 500).long()

    def __len__(self):
        return len(self.labels)

    def __getitem__(self, i):
        return {"input_ids": self.ids[i], "attention_mask": torch.ones_like(self.ids[i]), "labels": self.labels[i]}


def main(epochs=2, lr=2e-3):
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = Encoder().to(device)
    # (pretrained weights would be loaded here)
    inject_lora(model, r=8, alpha=16)
    trainable = [p for p in model.parameters() if p.requires_grad]
    print(f"trainable params: {sum(p.numel() for p in trainable)}")
    optimizer = torch.optim.AdamW(trainable, lr=lr)

    loader = DataLoader(ReviewDataset(), batch_size=16, shuffle=True)
    batch = next(iter(loader))
    batch = {k: v.to(device) for k, v in batch.items()}  # expect: DEV003
    print({k: tuple(v.shape) for k, v in batch.items()})

    model.train()
    for epoch in range(epochs):
        for batch in loader:
            logits = model(batch["input_ids"], batch["attention_mask"])  # also: DEV002
            loss = F.cross_entropy(logits, batch["labels"])  # also: DEV004
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        print(f"epoch {epoch} loss {loss.item():.4f}")


if __name__ == "__main__":
    main()
