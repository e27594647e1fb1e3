"""A tiny decoder-only transformer with a hand-written KV cache, trained for a
few steps on a copy task and decoded greedily from a prompt.

Written from "Fix CUDA device mismatch in KVCache.update for index_copy_"
(torch.arange(seq_length) + start_pos defaults to the CPU), "[Bug Report]
generate() device mismatch on CUDA machines" (hand-built prompt token tensors
that live on the CPU) and the index_select reports for position embeddings.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

VOCAB, D, HEADS, LAYERS, MAX_LEN = 32, 64, 4, 2, 64


class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.ln1, self.ln2 = nn.LayerNorm(D), nn.LayerNorm(D)
        self.qkv = nn.Linear(D, 3 * D)
        self.proj = nn.Linear(D, D)
        self.mlp = nn.Sequential(nn.Linear(D, 4 * D), nn.GELU(), nn.Linear(4 * D, D))

    def forward(self, x, past=None):
        B, T, _ = x.shape
        q, k, v = self.qkv(self.ln1(x)).split(D, dim=-1)
        q, k, v = (t.view(B, T, HEADS, D // HEADS).transpose(1, 2) for t in (q, k, v))
        if past is not None:
            k = torch.cat([past[0], k], dim=2)
            v = torch.cat([past[1], v], dim=2)
        att = F.scaled_dot_product_attention(q, k, v, is_causal=past is None)
        x = x + self.proj(att.transpose(1, 2).reshape(B, T, D))
        x = x + self.mlp(self.ln2(x))
        return x, (k, v)


class TinyGPT(nn.Module):
    def __init__(self):
        super().__init__()
        self.tok = nn.Embedding(VOCAB, D)
        self.pos = nn.Embedding(MAX_LEN, D)
        self.blocks = nn.ModuleList(Block() for _ in range(LAYERS))
        self.ln_f = nn.LayerNorm(D)
        self.lm_head = nn.Linear(D, VOCAB, bias=False)

    def forward(self, idx, pos_ids, cache=None):
        x = self.tok(idx) + self.pos(pos_ids)
        new_cache = []
        for i, block in enumerate(self.blocks):
            x, kv = block(x, None if cache is None else cache[i])
            new_cache.append(kv)
        return self.lm_head(self.ln_f(x)), new_cache


@torch.no_grad()
def greedy_generate(model, prompt_ids, max_new_tokens, device):
    model.eval()
    prompt = torch.tensor([prompt_ids], dtype=torch.long)
    pos = torch.arange(prompt.size(1), device=device).unsqueeze(0)
    logits, cache = model(prompt, pos)  # expect: DEV002
    next_tok = logits[:, -1].argmax(dim=-1, keepdim=True)
    generated = [next_tok]
    for step in range(max_new_tokens - 1):
        cur = prompt.size(1) + step
        pos = torch.arange(cur, cur + 1).unsqueeze(0)  # expect: DEV006
        logits, cache = model(next_tok, pos, cache)
        next_tok = logits[:, -1].argmax(dim=-1, keepdim=True)
        generated.append(next_tok)
    return torch.cat(generated, dim=1)[0].cpu().tolist()


def copy_task_batch(batch_size, half, device):
    src = torch.randint(2, VOCAB, (batch_size, half), device=device)
    sep = torch.ones(batch_size, 1, dtype=torch.long, device=device)
    seq = torch.cat([src, sep, src], dim=1)
    return seq[:, :-1], seq[:, 1:]


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    torch.manual_seed(0)
    model = TinyGPT().to(device)
    opt = torch.optim.AdamW(model.parameters(), lr=3e-3)
    for step in range(150):
        x, y = copy_task_batch(32, 8, device)
        pos = torch.arange(x.size(1), device=device).unsqueeze(0)
        logits, _ = model(x, pos)
        loss = F.cross_entropy(logits.reshape(-1, VOCAB), y.reshape(-1))
        opt.zero_grad(set_to_none=True)
        loss.backward()
        opt.step()
    print("final loss", round(loss.item(), 3))
    prompt = [5, 9, 12, 3, 7, 21, 30, 4, 1]
    print("continuation", greedy_generate(model, prompt, max_new_tokens=8, device=device))


if __name__ == "__main__":
    main()
