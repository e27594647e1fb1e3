# LoRA fine-tuning of a tiny transformer encoder for sequence classification.
# Base weights frozen; only the low-rank adapters on q/v and the classifier train.
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

CFG = dict(vocab=100, d_model=64, n_head=4, n_layer=2, n_cls=2, max_len=32,
           lora_r=4, lora_alpha=8, lr=5e-3, steps=40, batch=16)


class LoRALinear(nn.Module):
    def __init__(self, base: nn.Linear, r: int, alpha: int):
        super().__init__()
        self.base = base
        self.r = r
        self.scaling = alpha / r
        self.lora_A = nn.Parameter(torch.empty(r, base.in_features))
        self.lora_B = nn.Parameter(torch.zeros(base.out_features, r))
        nn.init.kaiming_uniform_(self.lora_A, a=math.sqrt(5))
        for p in self.base.parameters():
            p.requires_grad = False

    def forward(self, x):
        return self.base(x) + (x @ self.lora_A.t() @ self.lora_B.t()) * self.scaling


class Attention(nn.Module):
    def __init__(self, d, h):
        super().__init__()
        self.h, self.dh = h, d // h
        self.q_proj = nn.Linear(d, d)
        self.k_proj = nn.Linear(d, d)
        self.v_proj = nn.Linear(d, d)
        self.o_proj = nn.Linear(d, d)

    def forward(self, x, pad_mask):
        B, T, D = x.shape
        q = self.q_proj(x).view(B, T, self.h, self.dh).transpose(1, 2)
        k = self.k_proj(x).view(B, T, self.h, self.dh).transpose(1, 2)
        v = self.v_proj(x).view(B, T, self.h, self.dh).transpose(1, 2)
        out = F.scaled_dot_product_attention(q, k, v, attn_mask=pad_mask[:, None, None, :])
        return self.o_proj(out.transpose(1, 2).reshape(B, T, D))


class EncoderLayer(nn.Module):
    def __init__(self, d, h):
        super().__init__()
        self.attn = Attention(d, h)
        self.ff = nn.Sequential(nn.Linear(d, 2 * d), nn.GELU(), nn.Linear(2 * d, d))
        self.n1, self.n2 = nn.LayerNorm(d), nn.LayerNorm(d)

    def forward(self, x, pad_mask):
        x = self.n1(x + self.attn(x, pad_mask))
        return self.n2(x + self.ff(x))


class Classifier(nn.Module):
    def __init__(self, c):
        super().__init__()
        self.emb = nn.Embedding(c["vocab"], c["d_model"], padding_idx=0)
        self.pos = nn.Embedding(c["max_len"], c["d_model"])
        self.layers = nn.ModuleList(EncoderLayer(c["d_model"], c["n_head"]) for _ in range(c["n_layer"]))
        self.cls = nn.Linear(c["d_model"], c["n_cls"])

    def forward(self, ids):
        pad_mask = ids != 0
        pos = torch.arange(ids.size(1), device=ids.device)
        x = self.emb(ids) + self.pos(pos)
        for layer in self.layers:
            x = layer(x, pad_mask)
        x = (x * pad_mask.unsqueeze(-1)).sum(1) / pad_mask.sum(1, keepdim=True)
        return self.cls(x)


def inject_lora(model, targets=("q_proj", "v_proj"), r=4, alpha=8):
    for module in list(model.modules()):
        for name, child in list(module.named_children()):
            if name in targets and isinstance(child, nn.Linear):
                setattr(module, name, LoRALinear(child, r, alpha))  # expect: DEV015
    for n, p in model.named_parameters():
        if "lora_" not in n and not n.startswith("cls."):
            p.requires_grad = False
    return model


def batch_of(c, gen):
    lengths = torch.randint(4, c["max_len"], (c["batch"],), generator=gen)
    ids = torch.randint(2, c["vocab"], (c["batch"], c["max_len"]), generator=gen)
    ids[torch.arange(c["max_len"]).unsqueeze(0) >= lengths.unsqueeze(1)] = 0
    labels = (ids == 7).any(1).long()
    return ids, labels


if __name__ == "__main__":
    torch.manual_seed(0)
    device = "cuda" if torch.cuda.is_available() else "cpu"
    model = Classifier(CFG)
    # pretend this came from the pretraining run
    model.load_state_dict(Classifier(CFG).state_dict())
    model = model.to(device)
    inject_lora(model, r=CFG["lora_r"], alpha=CFG["lora_alpha"])

    trainable = [p for p in model.parameters() if p.requires_grad]
    print(f"trainable params: {sum(p.numel() for p in trainable)}")
    opt = torch.optim.AdamW(trainable, lr=CFG["lr"])
    gen = torch.Generator().manual_seed(1)
    for step in range(CFG["steps"]):
        ids, labels = batch_of(CFG, gen)
        ids, labels = ids.to(device), labels.to(device)
        loss = F.cross_entropy(model(ids), labels)
        opt.zero_grad()
        loss.backward()
        opt.step()
        if step % 10 == 0:
            print(f"step {step} loss {loss.item():.4f}")
