"""Batched sampling from a small GPT-style model trained on GPT-2 token ids:
left-padded prompts from the HF tokenizer, position ids from the attention
mask, a KV cache, and a value head added for reranking before the move."""
import math

import torch
import torch.nn as nn
from transformers import AutoTokenizer


class Block(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.h, self.d = heads, dim // heads
        self.qkv, self.proj = nn.Linear(dim, 3 * dim), nn.Linear(dim, dim)
        self.ln = nn.LayerNorm(dim)

    def forward(self, x, key_mask, cache):
        B, T, D = x.shape
        q, k, v = self.qkv(self.ln(x)).view(B, T, 3, self.h, self.d).permute(2, 0, 3, 1, 4)
        if cache is not None:
            k, v = torch.cat([cache[0], k], 2), torch.cat([cache[1], v], 2)
        S = k.size(2)
        att = q @ k.transpose(-1, -2) / math.sqrt(self.d)
        causal = torch.ones(T, S, dtype=torch.bool, device=x.device).tril(S - T)
        allowed = causal[None, None] & key_mask[:, None, None, :S].bool()
        att = att.masked_fill(~allowed, torch.finfo(att.dtype).min)
        out = (att.softmax(-1) @ v).transpose(1, 2).reshape(B, T, D)
        return x + self.proj(out), (k, v)


class SmallGPT(nn.Module):
    def __init__(self, vocab, dim=64, heads=4, layers=2, max_pos=256):
        super().__init__()
        self.wte, self.wpe = nn.Embedding(vocab, dim), nn.Embedding(max_pos, dim)
        self.blocks = nn.ModuleList(Block(dim, heads) for _ in range(layers))
        self.lm_head = nn.Linear(dim, vocab, bias=False)

    def forward(self, ids, position_ids, key_mask, caches=None):
        h = self.wte(ids) + self.wpe(position_ids)
        new = []
        for i, blk in enumerate(self.blocks):
            h, c = blk(h, key_mask, None if caches is None else caches[i])
            new.append(c)
        return self.lm_head(h), h, new


@torch.no_grad()
def generate(model, tokenizer, prompts, device, num_return=2, max_new=10, temperature=0.9):
    enc = tokenizer(prompts, return_tensors="pt", padding=True).to(device)
    input_ids = enc["input_ids"].repeat_interleave(num_return, 0)
    mask = enc["attention_mask"].repeat_interleave(num_return, 0)
    positions = (mask.cumsum(-1) - 1).clamp(min=0)
    logits, hidden, caches = model(input_ids, positions, mask)
    out = input_ids
    for _ in range(max_new):
        nxt = torch.multinomial((logits[:, -1] / temperature).softmax(-1), 1)
        out = torch.cat([out, nxt], 1)
        mask = torch.cat([mask, mask.new_ones(mask.size(0), 1)], 1)
        positions = positions[:, -1:] + 1
        logits, hidden, caches = model(nxt, positions, mask, caches)
    scores = model.value_head(hidden[:, -1]).squeeze(-1)
    return out, scores


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    tokenizer = AutoTokenizer.from_pretrained("gpt2", padding_side="left")
    tokenizer.pad_token = tokenizer.eos_token
    model = SmallGPT(len(tokenizer))
    model.value_head = nn.Linear(64, 1)
    model.to(device).eval()
    seqs, scores = generate(model, tokenizer, ["The cat sat", "Once upon a time there"], device)
    best = scores.view(2, -1).argmax(1).tolist()
    for p, b in enumerate(best):
        print(tokenizer.decode(seqs.view(2, -1, seqs.size(-1))[p, b].tolist(), skip_special_tokens=True))


if __name__ == "__main__":
    main()
