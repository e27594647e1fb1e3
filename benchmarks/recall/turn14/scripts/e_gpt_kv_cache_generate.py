"""Batched sampling from a small GPT with a key/value cache.

Left-padded prompts, top-k + temperature annealing. The model is trained for a
few steps on a toy "counting" corpus first so the samples are not pure noise.
"""
import argparse
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class CausalSelfAttention(nn.Module):
    def __init__(self, d_model, n_head):
        super().__init__()
        assert d_model % n_head == 0
        self.n_head = n_head
        self.head_dim = d_model // n_head
        self.qkv = nn.Linear(d_model, 3 * d_model)
        self.proj = nn.Linear(d_model, d_model)
        self.kv_cache = None

    def init_cache(self, batch_size, max_len):
        # [k|v, batch, head, time, head_dim]
        self.kv_cache = torch.zeros(2, batch_size, self.n_head, max_len, self.head_dim)  # expect: DEV010

    def forward(self, x, key_mask=None, start_pos=None):
        B, T, C = x.shape
        q, k, v = self.qkv(x).split(C, dim=2)
        q = q.view(B, T, self.n_head, self.head_dim).transpose(1, 2)
        k = k.view(B, T, self.n_head, self.head_dim).transpose(1, 2)
        v = v.view(B, T, self.n_head, self.head_dim).transpose(1, 2)

        if start_pos is not None:
            self.kv_cache[0, :B, :, start_pos:start_pos + T] = k
            self.kv_cache[1, :B, :, start_pos:start_pos + T] = v
            k = self.kv_cache[0, :B, :, :start_pos + T]
            v = self.kv_cache[1, :B, :, :start_pos + T]
            offset = start_pos
        else:
            offset = 0

        S = k.size(2)
        att = (q @ k.transpose(-2, -1)) / math.sqrt(self.head_dim)
        causal = torch.ones(T, S, dtype=torch.bool, device=x.device).tril(diagonal=offset)
        att = att.masked_fill(~causal, float("-inf"))
        if key_mask is not None:
            # finite fill so fully padded rows stay finite
            att = att.masked_fill(key_mask[:, None, None, :S] == 0, torch.finfo(att.dtype).min)
        att = F.softmax(att, dim=-1)
        y = (att @ v).transpose(1, 2).contiguous().view(B, T, C)
        return self.proj(y)


class Block(nn.Module):
    def __init__(self, d_model, n_head):
        super().__init__()
        self.ln1 = nn.LayerNorm(d_model)
        self.attn = CausalSelfAttention(d_model, n_head)
        self.ln2 = nn.LayerNorm(d_model)
        self.mlp = nn.Sequential(nn.Linear(d_model, 4 * d_model), nn.GELU(), nn.Linear(4 * d_model, d_model))

    def forward(self, x, key_mask=None, start_pos=None):
        x = x + self.attn(self.ln1(x), key_mask, start_pos)
        return x + self.mlp(self.ln2(x))


class TinyGPT(nn.Module):
    def __init__(self, vocab_size, d_model=64, n_head=4, n_layer=2, block_size=64):
        super().__init__()
        self.tok = nn.Embedding(vocab_size, d_model)
        self.pos = nn.Embedding(block_size, d_model)
        self.blocks = nn.ModuleList([Block(d_model, n_head) for _ in range(n_layer)])
        self.ln_f = nn.LayerNorm(d_model)
        self.head = nn.Linear(d_model, vocab_size, bias=False)

    def init_cache(self, batch_size, max_len):
        for blk in self.blocks:
            blk.attn.init_cache(batch_size, max_len)

    def forward(self, idx, position_ids, key_mask=None, start_pos=None):
        x = self.tok(idx) + self.pos(position_ids)
        for blk in self.blocks:
            x = blk(x, key_mask, start_pos)
        return self.head(self.ln_f(x))


@torch.no_grad()
def generate(model, input_ids, attention_mask, max_new_tokens, temperature=1.0, min_temperature=0.6, top_k=10):
    model.eval()
    B, T = input_ids.shape
    model.init_cache(B, T + max_new_tokens)
    temps = torch.linspace(temperature, min_temperature, max_new_tokens)

    # left padding: positions count real tokens only
    position_ids = (attention_mask.long().cumsum(-1) - 1).clamp(min=0)
    logits = model(input_ids, position_ids, attention_mask, start_pos=0)[:, -1, :]
    out = input_ids
    cur = T
    for step in range(max_new_tokens):
        logits = logits / temps[step]
        if top_k is not None:
            v, _ = torch.topk(logits, min(top_k, logits.size(-1)))
            logits[logits < v[:, [-1]]] = float("-inf")
        probs = F.softmax(logits, dim=-1)
        next_tok = torch.multinomial(probs, num_samples=1)
        out = torch.cat([out, next_tok], dim=1)

        attention_mask = torch.cat([attention_mask, torch.ones(B, 1, dtype=attention_mask.dtype)], dim=1)  # expect: DEV006
        position_ids = position_ids[:, -1:] + 1
        logits = model(next_tok, position_ids, attention_mask, start_pos=cur)[:, -1, :]
        cur += 1
    return out


def toy_corpus(n_seq, seq_len, vocab_size, generator):
    starts = torch.randint(1, vocab_size, (n_seq, 1), generator=generator)
    steps = torch.arange(seq_len).unsqueeze(0)
    return (starts + steps - 1) % (vocab_size - 1) + 1  # token 0 is padding


def left_pad(prompts, pad_id=0):
    width = max(len(p) for p in prompts)
    ids = [[pad_id] * (width - len(p)) + p for p in prompts]
    mask = [[0] * (width - len(p)) + [1] * len(p) for p in prompts]
    return ids, mask


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--steps", type=int, default=30)
    parser.add_argument("--max-new-tokens", type=int, default=12)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()

    torch.manual_seed(args.seed)
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    vocab_size = 32
    model = TinyGPT(vocab_size).to(device)
    opt = torch.optim.AdamW(model.parameters(), lr=3e-3)

    g = torch.Generator().manual_seed(args.seed)
    for step in range(args.steps):
        seqs = toy_corpus(16, 24, vocab_size, g).to(device)
        pos = torch.arange(seqs.size(1) - 1, device=device).unsqueeze(0)
        logits = model(seqs[:, :-1], pos)
        loss = F.cross_entropy(logits.reshape(-1, vocab_size), seqs[:, 1:].reshape(-1))
        opt.zero_grad(set_to_none=True)
        loss.backward()
        opt.step()
    print(f"final train loss {loss.item():.3f}")

    prompts = [[3, 4, 5], [10, 11], [20, 21, 22, 23]]
    ids, mask = left_pad(prompts)
    input_ids = torch.tensor(ids, device=device)
    attention_mask = torch.tensor(mask, device=device)
    out = generate(model, input_ids, attention_mask, args.max_new_tokens)
    for row in out.tolist():
        print(" ".join(str(t) for t in row if t != 0))


if __name__ == "__main__":
    main()
