"""Hand-rolled LoRA fine-tuning of a tiny causal LM (no peft, no bitsandbytes).

Written from the threads "LORA error when running train_text_to_image_lora.py ... cuda:0 and
cpu" (diffusers) and "Expected all tensors to be on the same device ... mat2 in method
wrapper_CUDA_mm" (peft): the adapters are injected after the base model went to the GPU, so
lora_A / lora_B are created on the CPU; the base checkpoint is also loaded without
map_location although the script falls back to the CPU.
"""
import argparse
import math
import os

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


class Block(nn.Module):
    def __init__(self, d, n_heads):
        super().__init__()
        self.n_heads = n_heads
        self.q_proj = nn.Linear(d, d)
        self.k_proj = nn.Linear(d, d)
        self.v_proj = nn.Linear(d, d)
        self.o_proj = nn.Linear(d, d)
        self.ln1, self.ln2 = nn.LayerNorm(d), nn.LayerNorm(d)
        self.mlp = nn.Sequential(nn.Linear(d, 4 * d), nn.GELU(), nn.Linear(4 * d, d))

    def forward(self, x):
        b, t, d = x.shape
        h = self.ln1(x)
        q, k, v = (p(h).view(b, t, self.n_heads, -1).transpose(1, 2)
                   for p in (self.q_proj, self.k_proj, self.v_proj))
        a = F.scaled_dot_product_attention(q, k, v, is_causal=True)
        x = x + self.o_proj(a.transpose(1, 2).reshape(b, t, d))
        return x + self.mlp(self.ln2(x))


class TinyLM(nn.Module):
    def __init__(self, vocab=128, d=64, n_layers=2, n_heads=4, max_len=64):
        super().__init__()
        self.tok = nn.Embedding(vocab, d)
        self.pos = nn.Embedding(max_len, d)
        self.blocks = nn.ModuleList([Block(d, n_heads) for _ in range(n_layers)])
        self.head = nn.Linear(d, vocab, bias=False)

    def forward(self, ids):
        pos = torch.arange(ids.size(1), device=ids.device)
        x = self.tok(ids) + self.pos(pos)
        for blk in self.blocks:
            x = blk(x)
        return self.head(x)


class LoRALinear(nn.Module):
    def __init__(self, base: nn.Linear, r=8, alpha=16):
        super().__init__()
        self.base = base
        self.lora_A = nn.Parameter(torch.empty(r, base.in_features))
        self.lora_B = nn.Parameter(torch.zeros(base.out_features, r))
        nn.init.kaiming_uniform_(self.lora_A, a=math.sqrt(5))
        self.scale = alpha / r

    def forward(self, x):
        return self.base(x) + (x @ self.lora_A.t() @ self.lora_B.t()) * self.scale


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--base-ckpt", default="tiny_lm_base.pt")
    ap.add_argument("--rank", type=int, default=8)
    ap.add_argument("--steps", type=int, default=30)
    ap.add_argument("--out", default="lora_adapter.pt")
    args = ap.parse_args()

    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    torch.manual_seed(0)

    model = TinyLM()
    if os.path.exists(args.base_ckpt):
        state = torch.load(args.base_ckpt)  # expect: DEV008
        model.load_state_dict(state["model"])
    model.to(device)

    # freeze the base, then wrap the attention projections with low-rank adapters
    model.requires_grad_(False)
    for blk in model.blocks:
        for name in ("q_proj", "v_proj"):
            setattr(blk, name, LoRALinear(getattr(blk, name), r=args.rank))  # expect: DEV015

    trainable = [p for p in model.parameters() if p.requires_grad]
    print(f"trainable params: {sum(p.numel() for p in trainable)}")
    opt = torch.optim.AdamW(trainable, lr=2e-3)

    data = torch.randint(2, 128, (96, 33))
    loader = DataLoader(TensorDataset(data), batch_size=8, shuffle=True)

    model.train()
    step = 0
    while step < args.steps:
        for (seq,) in loader:
            seq = seq.to(device)
            inputs, targets = seq[:, :-1], seq[:, 1:]
            logits = model(inputs)
            loss = F.cross_entropy(logits.reshape(-1, logits.size(-1)), targets.reshape(-1))
            opt.zero_grad(set_to_none=True)
            loss.backward()
            opt.step()
            step += 1
            if step % 10 == 0:
                print(f"step {step} loss {loss.item():.3f}")
            if step >= args.steps:
                break

    adapter = {k: v.detach().cpu() for k, v in model.state_dict().items() if "lora_" in k}
    torch.save(adapter, args.out)


if __name__ == "__main__":
    main()
