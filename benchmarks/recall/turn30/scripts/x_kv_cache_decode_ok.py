"""Decoder-only LM with a hand-written KV cache for incremental greedy/temperature decoding."""
from dataclasses import dataclass

import torch
import torch.nn.functional as F
from torch import nn


@dataclass
class Config:
    vocab: int = 64
    d_model: int = 32
    n_head: int = 4
    n_layer: int = 2
    max_len: int = 64
    max_batch: int = 4


class CachedAttention(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.n_head = cfg.n_head
        self.hd = cfg.d_model // cfg.n_head
        self.qkv = nn.Linear(cfg.d_model, 3 * cfg.d_model)
        self.proj = nn.Linear(cfg.d_model, cfg.d_model)
        self.register_buffer("cache_k", torch.zeros(cfg.max_batch, cfg.n_head, cfg.max_len, self.hd), persistent=False)
        self.register_buffer("cache_v", torch.zeros(cfg.max_batch, cfg.n_head, cfg.max_len, self.hd), persistent=False)

    def forward(self, x, start_pos, use_cache):
        B, T, C = x.shape
        q, k, v = self.qkv(x).split(C, dim=-1)
        q, k, v = (t.view(B, T, self.n_head, self.hd).transpose(1, 2) for t in (q, k, v))
        if use_cache:
            self.cache_k[:B, :, start_pos:start_pos + T] = k.detach()
            self.cache_v[:B, :, start_pos:start_pos + T] = v.detach()
            k = self.cache_k[:B, :, :start_pos + T]
            v = self.cache_v[:B, :, :start_pos + T]
        S = k.size(2)
        att = (q @ k.transpose(-2, -1)) / self.hd ** 0.5
        # query i (absolute position start_pos + i) may see keys 0 .. start_pos + i
        q_pos = torch.arange(start_pos, start_pos + T, device=x.device)[:, None]
        k_pos = torch.arange(S, device=x.device)[None, :]
        att = att.masked_fill(k_pos > q_pos, float("-inf"))
        y = att.softmax(-1) @ v
        return self.proj(y.transpose(1, 2).reshape(B, T, C))


class Block(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.ln1 = nn.LayerNorm(cfg.d_model)
        self.attn = CachedAttention(cfg)
        self.ln2 = nn.LayerNorm(cfg.d_model)
        self.mlp = nn.Sequential(nn.Linear(cfg.d_model, 4 * cfg.d_model), nn.GELU(),
                                 nn.Linear(4 * cfg.d_model, cfg.d_model))

    def forward(self, x, start_pos, use_cache):
        x = x + self.attn(self.ln1(x), start_pos, use_cache)
        return x + self.mlp(self.ln2(x))


class CachedLM(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.tok = nn.Embedding(cfg.vocab, cfg.d_model)
        self.pos = nn.Embedding(cfg.max_len, cfg.d_model)
        self.blocks = nn.ModuleList([Block(cfg) for _ in range(cfg.n_layer)])
        self.ln_f = nn.LayerNorm(cfg.d_model)
        self.head = nn.Linear(cfg.d_model, cfg.vocab, bias=False)

    def forward(self, idx, start_pos=0, use_cache=False):
        T = idx.size(1)
        pos = torch.arange(start_pos, start_pos + T, device=idx.device)
        x = self.tok(idx) + self.pos(pos)
        for blk in self.blocks:
            x = blk(x, start_pos, use_cache)
        return self.head(self.ln_f(x))


@torch.no_grad()
def generate(model, prompt, max_new, temperature=0.0):
    model.eval()
    logits = model(prompt, start_pos=0, use_cache=True)[:, -1]
    out = [prompt]
    pos = prompt.size(1)
    for _ in range(max_new):
        if temperature > 0:
            nxt = torch.multinomial(F.softmax(logits / temperature, -1), 1)
        else:
            nxt = logits.argmax(-1, keepdim=True)
        out.append(nxt)
        logits = model(nxt, start_pos=pos, use_cache=True)[:, -1]
        pos += 1
    return torch.cat(out, dim=1)


def main():
    torch.manual_seed(0)
    cfg = Config()
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = CachedLM(cfg).to(device)
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    # learn to count modulo the vocabulary
    for step in range(50):
        start = torch.randint(0, cfg.vocab, (8, 1), device=device)
        seq = (start + torch.arange(17, device=device)) % cfg.vocab
        logits = model(seq[:, :-1])
        loss = F.cross_entropy(logits.reshape(-1, cfg.vocab), seq[:, 1:].reshape(-1))
        opt.zero_grad()
        loss.backward()
        opt.step()
    print("loss", round(loss.item(), 3))
    prompt = torch.tensor([[3, 4, 5], [10, 11, 12]], device=device)
    print(generate(model, prompt, 8).tolist())
    print(generate(model, prompt, 8, temperature=0.7).tolist())


if __name__ == "__main__":
    main()
