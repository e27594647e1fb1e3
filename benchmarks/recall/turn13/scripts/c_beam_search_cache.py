"""Beam search with a reordered KV cache for a tiny decoder-only model.

Written from "Beam search fails when using model parallelism" (transformers), the
tensor_parallel "_reorder_cache fix" (beam_idx on the wrong device) and caption-transformer's
"indices should be either on cpu or on the same device as the indexed tensor": the running
beam scores are created on the CPU inside the search, and the best hypothesis is turned into
NumPy straight from the GPU.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

VOCAB, BOS, EOS = 50, 0, 1


class CachedBlock(nn.Module):
    def __init__(self, d=64, n_heads=4):
        super().__init__()
        self.h = n_heads
        self.qkv = nn.Linear(d, 3 * d)
        self.proj = nn.Linear(d, d)
        self.ln1, self.ln2 = nn.LayerNorm(d), nn.LayerNorm(d)
        self.ff = nn.Sequential(nn.Linear(d, 4 * d), nn.GELU(), nn.Linear(4 * d, d))

    def forward(self, x, past=None):
        b, t, d = x.shape
        q, k, v = self.qkv(self.ln1(x)).chunk(3, dim=-1)
        q, k, v = (z.view(b, t, self.h, -1).transpose(1, 2) for z in (q, k, v))
        if past is not None:
            k = torch.cat([past[0], k], dim=2)
            v = torch.cat([past[1], v], dim=2)
        a = F.scaled_dot_product_attention(q, k, v, is_causal=past is None and t > 1)
        x = x + self.proj(a.transpose(1, 2).reshape(b, t, d))
        return x + self.ff(self.ln2(x)), (k, v)


class TinyDecoder(nn.Module):
    def __init__(self, d=64, n_layers=2, max_len=64):
        super().__init__()
        self.tok = nn.Embedding(VOCAB, d)
        self.pos = nn.Embedding(max_len, d)
        self.blocks = nn.ModuleList([CachedBlock(d) for _ in range(n_layers)])
        self.lm_head = nn.Linear(d, VOCAB)

    def forward(self, ids, cache=None):
        offset = 0 if cache is None else cache[0][0].size(2)
        pos = torch.arange(offset, offset + ids.size(1), device=ids.device)
        x = self.tok(ids) + self.pos(pos)
        new_cache = []
        for i, blk in enumerate(self.blocks):
            x, kv = blk(x, None if cache is None else cache[i])
            new_cache.append(kv)
        return self.lm_head(x), new_cache


@torch.no_grad()
def beam_search(model, prompt, num_beams=4, max_new_tokens=12, length_penalty=1.0):
    ids = prompt.repeat(num_beams, 1)
    beam_scores = torch.zeros(num_beams)  # expect: DEV006
    beam_scores[1:] = -1e9  # only the first beam is live at the start
    logits, cache = model(ids)
    for _ in range(max_new_tokens):
        logp = F.log_softmax(logits[:, -1, :], dim=-1)
        cand = (beam_scores[:, None] + logp).view(-1)
        top_scores, top_idx = cand.topk(num_beams)
        beam_idx = torch.div(top_idx, VOCAB, rounding_mode="floor")
        tokens = top_idx % VOCAB
        ids = torch.cat([ids[beam_idx], tokens[:, None]], dim=1)
        cache = [(k.index_select(0, beam_idx), v.index_select(0, beam_idx)) for k, v in cache]
        beam_scores = top_scores
        if (tokens == EOS).all():
            break
        logits, cache = model(tokens[:, None], cache)
    norm = beam_scores / (ids.size(1) ** length_penalty)
    return ids, norm


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    torch.manual_seed(0)
    model = TinyDecoder().to(device)
    opt = torch.optim.AdamW(model.parameters(), lr=3e-3)
    seqs = torch.randint(2, VOCAB, (128, 20))
    for _ in range(40):
        batch = seqs[torch.randint(0, 128, (32,))].to(device)
        logits, _ = model(batch[:, :-1])
        loss = F.cross_entropy(logits.reshape(-1, VOCAB), batch[:, 1:].reshape(-1))
        opt.zero_grad()
        loss.backward()
        opt.step()

    model.eval()
    prompt = torch.tensor([[BOS, 7, 11]], device=device)
    beams, scores = beam_search(model, prompt)
    best = beams[scores.argmax()]
    print("best beam:", best.numpy().tolist())  # expect: DEV011
    print("scores:", [round(s, 3) for s in scores.tolist()])


if __name__ == "__main__":
    main()
