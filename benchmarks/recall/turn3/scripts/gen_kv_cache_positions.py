"""Greedy decoding with a KV cache for a small decoder-only LM: positions fed explicitly at every step."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Block(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.ln1, self.ln2 = nn.LayerNorm(dim), nn.LayerNorm(dim)
        self.qkv = nn.Linear(dim, 3 * dim)
        self.proj = nn.Linear(dim, dim)
        self.mlp = nn.Sequential(nn.Linear(dim, 4 * dim), nn.GELU(), nn.Linear(4 * dim, dim))
        self.heads = heads

    def forward(self, x, cache=None):
        b, t, d = x.shape
        q, k, v = self.qkv(self.ln1(x)).view(b, t, 3, self.heads, d // self.heads).permute(2, 0, 3, 1, 4)
        if cache is not None:
            k = torch.cat([cache[0], k], dim=2)
            v = torch.cat([cache[1], v], dim=2)
        att = F.scaled_dot_product_attention(q, k, v, is_causal=cache is None)
        x = x + self.proj(att.transpose(1, 2).reshape(b, t, d))
        return x + self.mlp(self.ln2(x)), (k, v)


class TinyLM(nn.Module):
    def __init__(self, vocab=256, dim=64, heads=4, layers=2, max_len=128):
        super().__init__()
        self.tok = nn.Embedding(vocab, dim)
        self.pos = nn.Embedding(max_len, dim)
        self.blocks = nn.ModuleList([Block(dim, heads) for _ in range(layers)])
        self.head = nn.Linear(dim, vocab)

    def forward(self, ids, positions, caches=None):
        x = self.tok(ids) + self.pos(positions)
        new = []
        for i, blk in enumerate(self.blocks):
            x, c = blk(x, None if caches is None else caches[i])
            new.append(c)
        return self.head(x), new


@torch.no_grad()
def generate(model, prompt, max_new_tokens=32):
    device = next(model.parameters()).device
    ids = prompt.to(device)
    logits, caches = model(ids, torch.arange(ids.size(1), device=device).unsqueeze(0))
    out = [ids]
    for step in range(max_new_tokens):
        next_id = logits[:, -1].argmax(-1, keepdim=True)
        out.append(next_id)
        pos = torch.tensor([[ids.size(1) + step]])  # expect: DEV006
        logits, caches = model(next_id, pos, caches)
    return torch.cat(out, dim=1)


if __name__ == "__main__":
    device = "cuda" if torch.cuda.is_available() else "cpu"
    model = TinyLM().to(device).eval()
    prompt = torch.tensor([list(b"Once upon a time")])
    print(bytes(generate(model, prompt)[0].tolist()))
