"""Tiny GPT with a KV cache and top-k / top-p sampling; logs the per-step top probability."""
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F


class Block(nn.Module):
    def __init__(self, d, n_head):
        super().__init__()
        self.n_head = n_head
        self.ln1, self.ln2 = nn.LayerNorm(d), nn.LayerNorm(d)
        self.qkv = nn.Linear(d, 3 * d)
        self.proj = nn.Linear(d, d)
        self.mlp = nn.Sequential(nn.Linear(d, 4 * d), nn.GELU(), nn.Linear(4 * d, d))

    def forward(self, x, past=None):
        B, L, D = x.shape
        q, k, v = self.qkv(self.ln1(x)).split(D, dim=-1)
        q, k, v = (t.view(B, L, self.n_head, -1).transpose(1, 2) for t in (q, k, v))
        if past is not None:
            k = torch.cat([past[0], k], dim=2)
            v = torch.cat([past[1], v], dim=2)
        att = F.scaled_dot_product_attention(q, k, v, is_causal=past is None)
        x = x + self.proj(att.transpose(1, 2).reshape(B, L, D))
        x = x + self.mlp(self.ln2(x))
        return x, (k, v)


class TinyGPT(nn.Module):
    def __init__(self, vocab=64, d=64, n_layer=2, n_head=4, max_len=128):
        super().__init__()
        self.tok = nn.Embedding(vocab, d)
        self.pos = nn.Embedding(max_len, d)
        self.blocks = nn.ModuleList(Block(d, n_head) for _ in range(n_layer))
        self.ln_f = nn.LayerNorm(d)
        self.head = nn.Linear(d, vocab, bias=False)

    def forward(self, idx, position_ids, past=None):
        x = self.tok(idx) + self.pos(position_ids)
        presents = []
        for i, block in enumerate(self.blocks):
            x, kv = block(x, None if past is None else past[i])
            presents.append(kv)
        return self.head(self.ln_f(x)), presents


def filter_top_k_top_p(logits, top_k=0, top_p=1.0):
    if top_k > 0:
        kth = torch.topk(logits, top_k, dim=-1).values[..., -1, None]
        logits = logits.masked_fill(logits < kth, float("-inf"))
    if top_p < 1.0:
        sorted_logits, sorted_idx = torch.sort(logits, descending=True, dim=-1)
        cum = sorted_logits.softmax(-1).cumsum(-1)
        remove = cum > top_p
        remove[..., 1:] = remove[..., :-1].clone()
        remove[..., 0] = False
        logits = logits.masked_fill(remove.scatter(-1, sorted_idx, remove), float("-inf"))
    return logits


@torch.no_grad()
def generate(model, prompt_ids, max_new_tokens=20, temperature=0.8, top_k=20, top_p=0.9):
    device = next(model.parameters()).device
    ids = prompt_ids.to(device)
    cur, past, offset = ids, None, 0
    top_probs = []
    for _ in range(max_new_tokens):
        position_ids = torch.arange(offset, offset + cur.size(1)).unsqueeze(0).expand(cur.size(0), -1)  # expect: DEV006
        logits, past = model(cur, position_ids, past)
        offset += cur.size(1)
        logits = filter_top_k_top_p(logits[:, -1] / temperature, top_k, top_p)
        probs = logits.softmax(-1)
        top_probs.append(probs.max(dim=-1).values.numpy())  # expect: DEV011
        cur = torch.multinomial(probs, 1)
        ids = torch.cat([ids, cur], dim=1)
    return ids, top_probs


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--new-tokens", type=int, default=16)
    args = ap.parse_args()
    device = "cuda" if torch.cuda.is_available() else "cpu"
    model = TinyGPT().to(device).eval()
    prompts = torch.randint(0, 64, (2, 5))
    out, top_probs = generate(model, prompts, args.new_tokens)
    print(out.tolist())
    print("mean top prob", float(sum(p.mean() for p in top_probs) / len(top_probs)))


if __name__ == "__main__":
    main()
