"""Hand-rolled LoRA: load a small pretrained encoder, freeze it, wrap the q/v
projections with low-rank adapters and train only those."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class Block(nn.Module):
    def __init__(self, d, heads=4):
        super().__init__()
        self.heads = heads
        self.q_proj = nn.Linear(d, d)
        self.k_proj = nn.Linear(d, d)
        self.v_proj = nn.Linear(d, d)
        self.o_proj = nn.Linear(d, d)
        self.norm = nn.LayerNorm(d)

    def forward(self, x):
        b, t, d = x.shape
        h = self.norm(x)
        q, k, v = (p(h).view(b, t, self.heads, -1).transpose(1, 2) for p in (self.q_proj, self.k_proj, self.v_proj))
        a = F.scaled_dot_product_attention(q, k, v)
        return x + self.o_proj(a.transpose(1, 2).reshape(b, t, d))


class TinyEncoder(nn.Module):
    def __init__(self, vocab=100, d=32, layers=2, n_cls=3):
        super().__init__()
        self.emb = nn.Embedding(vocab, d)
        self.blocks = nn.ModuleList(Block(d) for _ in range(layers))
        self.cls = nn.Linear(d, n_cls)

    def forward(self, ids):
        x = self.emb(ids)
        for blk in self.blocks:
            x = blk(x)
        return self.cls(x.mean(1))


class LoRALinear(nn.Module):
    def __init__(self, base: nn.Linear, r=4, alpha=8):
        super().__init__()
        self.base = base
        self.scale = alpha / r
        self.lora_A = nn.Parameter(torch.empty(r, base.in_features))
        self.lora_B = nn.Parameter(torch.zeros(base.out_features, r))
        nn.init.kaiming_uniform_(self.lora_A, a=math.sqrt(5))

    def forward(self, x):
        return self.base(x) + (x @ self.lora_A.t() @ self.lora_B.t()) * self.scale


def inject_lora(model, targets=("q_proj", "v_proj"), r=4):
    replaced = 0
    for module in list(model.modules()):
        for name, child in list(module.named_children()):
            if name in targets and isinstance(child, nn.Linear):
                setattr(module, name, LoRALinear(child, r=r))  # expect: DEV015
                replaced += 1
    return replaced


def main():
    torch.manual_seed(0)
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")

    model = TinyEncoder()
    model.load_state_dict(TinyEncoder().state_dict())  # "pretrained" weights
    model.to(device)
    model.requires_grad_(False)
    model.cls.requires_grad_(True)

    n = inject_lora(model, r=4)
    trainable = [p for p in model.parameters() if p.requires_grad]
    print(f"wrapped {n} layers, {sum(p.numel() for p in trainable)} trainable params")

    opt = torch.optim.AdamW(trainable, lr=1e-3)
    ids = torch.randint(0, 100, (16, 12))
    labels = torch.randint(0, 3, (16,))
    for step in range(5):
        for i in range(0, 16, 4):
            x, y = ids[i:i + 4].to(device), labels[i:i + 4].to(device)
            loss = F.cross_entropy(model(x), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
        print(f"step {step} loss {loss.item():.4f}")


if __name__ == "__main__":
    main()
