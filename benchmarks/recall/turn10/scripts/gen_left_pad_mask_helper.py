"""Batched sampling from a tiny decoder: prompts of different lengths are left-padded by a helper,
which also builds the attention mask; position ids come from the mask's cumulative sum.

Thread: https://github.com/huggingface/transformers/pull/39981 (device mismatch when computing
position_ids from tensors on different devices).
"""
import torch
import torch.nn as nn


class TinyLM(nn.Module):
    def __init__(self, vocab=64, d=64, max_pos=128):
        super().__init__()
        self.tok = nn.Embedding(vocab, d)
        self.pos = nn.Embedding(max_pos, d)
        self.attn = nn.MultiheadAttention(d, 4, batch_first=True)
        self.out = nn.Linear(d, vocab)

    def forward(self, ids, attention_mask, position_ids):
        h = self.tok(ids) + self.pos(position_ids)
        t = ids.size(1)
        causal = torch.triu(torch.ones(t, t, dtype=torch.bool, device=ids.device), diagonal=1)
        h, _ = self.attn(h, h, h, attn_mask=causal, key_padding_mask=attention_mask == 0)
        return self.out(h)


def left_pad(prompts, pad_id, device):
    width = max(len(p) for p in prompts)
    ids = torch.full((len(prompts), width), pad_id, dtype=torch.long, device=device)
    mask = torch.zeros(len(prompts), width, dtype=torch.long)  # expect: DEV006
    for i, p in enumerate(prompts):
        ids[i, width - len(p):] = torch.tensor(p, device=device)
        mask[i, width - len(p):] = 1
    return ids, mask


@torch.no_grad()
def sample(model, prompts, steps, device, temperature=0.8, pad_id=0):
    ids, mask = left_pad(prompts, pad_id, device)
    for _ in range(steps):
        position_ids = (mask.cumsum(-1) - 1).clamp(min=0)
        logits = model(ids, mask, position_ids)[:, -1] / temperature
        nxt = torch.multinomial(logits.softmax(-1), num_samples=1)
        ids = torch.cat([ids, nxt], dim=1)
        mask = torch.cat([mask, torch.ones_like(nxt)], dim=1)
    return ids


if __name__ == "__main__":
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = TinyLM().to(device).eval()
    prompts = [[5, 9, 12], [7, 3, 3, 8, 21, 2], [40]]
    print(sample(model, prompts, steps=10, device=device).tolist())
