"""nanoGPT-flavoured word model: causal mask as a buffer, learned positions, KV cache,
nucleus sampling. Trains for a few steps on a toy corpus and prints samples."""
import math
from dataclasses import dataclass

import torch
import torch.nn as nn
import torch.nn.functional as F


@dataclass
class GPTConfig:
    vocab_size: int = 32
    block_size: int = 48
    n_layer: int = 2
    n_head: int = 2
    n_embd: int = 64
    dropout: float = 0.0


class CausalSelfAttention(nn.Module):
    def __init__(self, cfg: GPTConfig):
        super().__init__()
        self.c_attn = nn.Linear(cfg.n_embd, 3 * cfg.n_embd)
        self.c_proj = nn.Linear(cfg.n_embd, cfg.n_embd)
        self.n_head = cfg.n_head
        self.register_buffer(
            "bias",
            torch.tril(torch.ones(cfg.block_size, cfg.block_size)).view(1, 1, cfg.block_size, cfg.block_size),
            persistent=False,
        )

    def forward(self, x, layer_past=None):
        B, T, C = x.size()
        q, k, v = self.c_attn(x).split(C, dim=2)
        k = k.view(B, T, self.n_head, C // self.n_head).transpose(1, 2)
        q = q.view(B, T, self.n_head, C // self.n_head).transpose(1, 2)
        v = v.view(B, T, self.n_head, C // self.n_head).transpose(1, 2)
        if layer_past is not None:
            pk, pv = layer_past
            k = torch.cat((pk, k), dim=-2)
            v = torch.cat((pv, v), dim=-2)
        L = k.size(-2)
        att = (q @ k.transpose(-2, -1)) * (1.0 / math.sqrt(k.size(-1)))
        att = att.masked_fill(self.bias[:, :, L - T:L, :L] == 0, float("-inf"))
        att = F.softmax(att, dim=-1)
        y = (att @ v).transpose(1, 2).contiguous().view(B, T, C)
        return self.c_proj(y), (k, v)


class Block(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.ln_1 = nn.LayerNorm(cfg.n_embd)
        self.attn = CausalSelfAttention(cfg)
        self.ln_2 = nn.LayerNorm(cfg.n_embd)
        self.mlp = nn.Sequential(nn.Linear(cfg.n_embd, 4 * cfg.n_embd), nn.GELU(),
                                 nn.Linear(4 * cfg.n_embd, cfg.n_embd))

    def forward(self, x, layer_past=None):
        a, present = self.attn(self.ln_1(x), layer_past)
        x = x + a
        return x + self.mlp(self.ln_2(x)), present


class GPT(nn.Module):
    def __init__(self, cfg: GPTConfig):
        super().__init__()
        self.cfg = cfg
        self.wte = nn.Embedding(cfg.vocab_size, cfg.n_embd)
        self.wpe = nn.Embedding(cfg.block_size, cfg.n_embd)
        self.h = nn.ModuleList([Block(cfg) for _ in range(cfg.n_layer)])
        self.ln_f = nn.LayerNorm(cfg.n_embd)
        self.lm_head = nn.Linear(cfg.n_embd, cfg.vocab_size, bias=False)
        self.wte.weight = self.lm_head.weight

    def forward(self, idx, targets=None, past=None):
        b, t = idx.size()
        offset = 0 if past is None else past[0][0].size(-2)
        pos = torch.arange(offset, offset + t, dtype=torch.long, device=idx.device)
        x = self.wte(idx) + self.wpe(pos)
        presents = []
        for i, block in enumerate(self.h):
            x, p = block(x, None if past is None else past[i])
            presents.append(p)
        logits = self.lm_head(self.ln_f(x))
        loss = None
        if targets is not None:
            loss = F.cross_entropy(logits.view(-1, logits.size(-1)), targets.view(-1))
        return logits, loss, presents


def nucleus_filter(logits, top_p=0.9):
    sorted_logits, sorted_idx = torch.sort(logits, descending=True)
    cum = torch.cumsum(F.softmax(sorted_logits, dim=-1), dim=-1)
    drop = cum > top_p
    drop[..., 1:] = drop[..., :-1].clone()
    drop[..., 0] = False
    drop = drop.scatter(-1, sorted_idx, drop)
    return logits.masked_fill(drop, float("-inf"))


@torch.no_grad()
def sample(model, idx, steps, temperature=1.0, top_p=0.9):
    logits, _, past = model(idx)
    for _ in range(steps):
        if idx.size(1) >= model.cfg.block_size:
            break
        probs = F.softmax(nucleus_filter(logits[:, -1, :] / temperature, top_p), dim=-1)
        nxt = torch.multinomial(probs, 1)
        idx = torch.cat((idx, nxt), dim=1)
        logits, _, past = model(nxt, past=past)
    return idx


def main():
    device = "cuda" if torch.cuda.is_available() else "cpu"
    words = "a cat sat on the mat and a dog lay on the rug while the bird sang".split()
    vocab = sorted(set(words))
    stoi = {w: i for i, w in enumerate(vocab)}
    corpus = torch.tensor([stoi[w] for w in words * 30], dtype=torch.long)

    cfg = GPTConfig(vocab_size=len(vocab))
    model = GPT(cfg).to(device)
    opt = torch.optim.AdamW(model.parameters(), lr=1e-2)

    for it in range(50):
        ix = torch.randint(len(corpus) - cfg.block_size - 1, (8,))
        x = torch.stack([corpus[i:i + 24] for i in ix]).to(device)
        y = torch.stack([corpus[i + 1:i + 25] for i in ix]).to(device)
        _, loss, _ = model(x, y)
        opt.zero_grad(set_to_none=True)
        loss.backward()
        opt.step()
    print("final loss", round(loss.item(), 3))

    model.eval()
    start = torch.full((3, 1), stoi["the"], dtype=torch.long, device=device)
    out = sample(model, start, 12)
    for row in out.cpu().numpy():
        print(" ".join(vocab[i] for i in row))


if __name__ == "__main__":
    main()
