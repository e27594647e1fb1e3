# Nucleus sampling with a repetition penalty and a preallocated KV cache.
# A small decoder is trained for a few steps on a toy corpus first.
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

VOCAB, D, H, L, CTX = 40, 64, 4, 2, 64
BANNED = [0, 1]  # pad, unk


class Attn(nn.Module):
    def __init__(self):
        super().__init__()
        self.qkv = nn.Linear(D, 3 * D)
        self.o = nn.Linear(D, D)
        self.register_buffer("causal", torch.tril(torch.ones(CTX, CTX, dtype=torch.bool)), persistent=False)
        self.cache = None

    def alloc_cache(self, batch, max_len):
        w = self.qkv.weight
        self.cache = torch.zeros(2, batch, H, max_len, D // H, device=w.device, dtype=w.dtype)

    def forward(self, x, start=None, key_mask=None):
        B, T, _ = x.shape
        q, k, v = (t.view(B, T, H, D // H).transpose(1, 2) for t in self.qkv(x).chunk(3, dim=-1))
        if start is not None:
            self.cache[0, :, :, start:start + T] = k
            self.cache[1, :, :, start:start + T] = v
            k, v = self.cache[0, :, :, :start + T], self.cache[1, :, :, :start + T]
        else:
            start = 0
        S = k.size(2)
        att = (q @ k.transpose(-1, -2)) / math.sqrt(D // H)
        att = att.masked_fill(~self.causal[start:start + T, :S], float("-inf"))
        if key_mask is not None:
            att = att.masked_fill(~key_mask[:, None, None, :S].bool(), torch.finfo(att.dtype).min)
        return self.o((att.softmax(-1) @ v).transpose(1, 2).reshape(B, T, D))


class Decoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.tok = nn.Embedding(VOCAB, D)
        self.pos = nn.Embedding(CTX, D)
        self.attn = nn.ModuleList(Attn() for _ in range(L))
        self.ff = nn.ModuleList(nn.Sequential(nn.LayerNorm(D), nn.Linear(D, 2 * D), nn.GELU(), nn.Linear(2 * D, D))
                                for _ in range(L))
        self.norm = nn.LayerNorm(D)
        self.lm_head = nn.Linear(D, VOCAB)

    def alloc_cache(self, batch, max_len):
        for a in self.attn:
            a.alloc_cache(batch, max_len)

    def forward(self, ids, pos, start=None, key_mask=None):
        x = self.tok(ids) + self.pos(pos)
        for a, f in zip(self.attn, self.ff):
            x = x + a(x, start, key_mask)
            x = x + f(x)
        return self.lm_head(self.norm(x))


def top_p_filter(logits, top_p):
    sorted_logits, idx = logits.sort(dim=-1, descending=True)
    cum = sorted_logits.softmax(-1).cumsum(-1)
    drop = cum - sorted_logits.softmax(-1) > top_p
    sorted_logits = sorted_logits.masked_fill(drop, float("-inf"))
    return torch.full_like(logits, float("-inf")).scatter(-1, idx, sorted_logits)


@torch.no_grad()
def sample(model, ids, mask, n_new, top_p=0.9, penalty=1.3, temps=None):
    model.eval()
    B, T = ids.shape
    model.alloc_cache(B, T + n_new)
    if temps is None:
        temps = torch.linspace(1.0, 0.7, n_new)
    banned = torch.tensor(BANNED)
    pos = (mask.cumsum(-1) - 1).clamp(min=0)
    logits = model(ids, pos, start=0, key_mask=mask)[:, -1]
    seen = torch.zeros(B, VOCAB, dtype=torch.bool, device=ids.device)
    seen.scatter_(1, ids, True)
    out = ids
    for step in range(n_new):
        scale = torch.where(seen, torch.full_like(logits, penalty), torch.ones_like(logits))
        logits = torch.where(logits > 0, logits / scale, logits * scale)
        logits[:, banned] = float("-inf")
        logits = top_p_filter(logits / temps[step], top_p)
        nxt = torch.multinomial(logits.softmax(-1), 1)
        seen.scatter_(1, nxt, True)
        out = torch.cat([out, nxt], dim=1)
        mask = torch.cat([mask, mask.new_ones(B, 1)], dim=1)
        pos = pos[:, -1:] + 1
        logits = model(nxt, pos, start=T + step, key_mask=mask)[:, -1]
    return out


def main():
    torch.manual_seed(0)
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = Decoder().to(device)
    opt = torch.optim.AdamW(model.parameters(), lr=3e-3)
    for _ in range(40):
        start = torch.randint(2, VOCAB, (32, 1), device=device)
        seq = (start + torch.arange(20, device=device)) % (VOCAB - 2) + 2
        pos = torch.arange(19, device=device).expand(32, -1)
        loss = F.cross_entropy(model(seq[:, :-1], pos).flatten(0, 1), seq[:, 1:].flatten())
        opt.zero_grad()
        loss.backward()
        opt.step()
    print("train loss", round(loss.item(), 3))

    prompts = [[5, 6, 7], [20, 21, 22, 23]]
    width = max(map(len, prompts))
    ids = torch.tensor([[0] * (width - len(p)) + p for p in prompts], device=device)
    mask = (ids != 0).long()
    for row in sample(model, ids, mask, 10).tolist():
        print(row)


if __name__ == "__main__":
    main()
