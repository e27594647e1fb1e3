"""Llama-style attention with a preallocated KV cache and an incremental sampling loop.

Correct look-alike, written from TransformerLens "Cache is not set to model device",
transformers "Fix Layer device placement in Caches" and the static-cache PR thread ("Expected
all tensors to be on the same device, but found at least two devices, cuda:0 and cpu!"): the
cache is a plain attribute allocated in __init__, but forward re-homes it with
self.cache_k.to(xq) before writing, and every tensor the sampling loop makes follows the
logits' device.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Attention(nn.Module):
    def __init__(self, dim, n_heads, max_batch, max_seq):
        super().__init__()
        self.n_heads, self.head_dim = n_heads, dim // n_heads
        self.wq = nn.Linear(dim, dim, bias=False)
        self.wk = nn.Linear(dim, dim, bias=False)
        self.wv = nn.Linear(dim, dim, bias=False)
        self.wo = nn.Linear(dim, dim, bias=False)
        self.cache_k = torch.zeros(max_batch, max_seq, n_heads, self.head_dim)
        self.cache_v = torch.zeros(max_batch, max_seq, n_heads, self.head_dim)

    def forward(self, x, start_pos, mask):
        bsz, seqlen, _ = x.shape
        xq = self.wq(x).view(bsz, seqlen, self.n_heads, self.head_dim)
        xk = self.wk(x).view(bsz, seqlen, self.n_heads, self.head_dim)
        xv = self.wv(x).view(bsz, seqlen, self.n_heads, self.head_dim)
        self.cache_k = self.cache_k.to(xq)
        self.cache_v = self.cache_v.to(xq)
        self.cache_k[:bsz, start_pos:start_pos + seqlen] = xk
        self.cache_v[:bsz, start_pos:start_pos + seqlen] = xv
        keys = self.cache_k[:bsz, :start_pos + seqlen].transpose(1, 2)
        values = self.cache_v[:bsz, :start_pos + seqlen].transpose(1, 2)
        scores = xq.transpose(1, 2) @ keys.transpose(2, 3) / self.head_dim ** 0.5
        if mask is not None:
            scores = scores + mask
        out = F.softmax(scores.float(), dim=-1).type_as(xq) @ values
        return self.wo(out.transpose(1, 2).reshape(bsz, seqlen, -1))


class TinyLlama(nn.Module):
    def __init__(self, vocab=80, dim=64, n_layers=2, n_heads=4, max_batch=4, max_seq=64):
        super().__init__()
        self.tok = nn.Embedding(vocab, dim)
        self.pos = nn.Embedding(max_seq, dim)
        self.layers = nn.ModuleList([Attention(dim, n_heads, max_batch, max_seq) for _ in range(n_layers)])
        self.norm = nn.LayerNorm(dim)
        self.out = nn.Linear(dim, vocab, bias=False)

    @torch.inference_mode()
    def forward(self, tokens, start_pos):
        seqlen = tokens.size(1)
        pos = torch.arange(start_pos, start_pos + seqlen, device=tokens.device)
        h = self.tok(tokens) + self.pos(pos)
        mask = None
        if seqlen > 1:
            mask = torch.full((seqlen, seqlen), float("-inf"), device=tokens.device).triu(1)
            mask = torch.hstack([torch.zeros((seqlen, start_pos), device=tokens.device), mask]).type_as(h)
        for layer in self.layers:
            h = h + layer(h, start_pos, mask)
        return self.out(self.norm(h)).float()


def sample_top_p(probs, p):
    sorted_probs, idx = torch.sort(probs, dim=-1, descending=True)
    cum = torch.cumsum(sorted_probs, dim=-1)
    sorted_probs[(cum - sorted_probs) > p] = 0.0
    sorted_probs.div_(sorted_probs.sum(dim=-1, keepdim=True))
    return torch.gather(idx, -1, torch.multinomial(sorted_probs, 1))


def generate(model, prompts, max_gen_len=16, temperature=0.7, top_p=0.9, eos_id=1):
    device = next(model.parameters()).device
    bsz, plen = len(prompts), max(len(p) for p in prompts)
    tokens = torch.zeros((bsz, plen + max_gen_len), dtype=torch.long, device=device)
    for i, p in enumerate(prompts):
        tokens[i, :len(p)] = torch.tensor(p, dtype=torch.long, device=device)
    done = torch.zeros(bsz, dtype=torch.bool, device=device)
    prev = 0
    for cur in range(min(len(p) for p in prompts), plen + max_gen_len):
        logits = model(tokens[:, prev:cur], prev)[:, -1]
        nxt = sample_top_p(torch.softmax(logits / temperature, dim=-1), top_p).squeeze(-1)
        keep_prompt = cur < torch.tensor([len(p) for p in prompts], device=device)
        nxt = torch.where(keep_prompt, tokens[:, cur], nxt)
        tokens[:, cur] = nxt
        done |= ~keep_prompt & (nxt == eos_id)
        prev = cur
        if done.all():
            break
    return tokens.cpu().tolist()


if __name__ == "__main__":
    device = "cuda" if torch.cuda.is_available() else "cpu"
    torch.manual_seed(0)
    model = TinyLlama().to(device).eval()
    for row in generate(model, [[2, 5, 9], [2, 7], [2, 3, 3, 4]]):
        print(row)
