"""Correct look-alike: left-padded batched sampling where the helper builds the attention mask on
the target device, the prompt rows are copied in from CPU lists (a CPU source for an indexed
assignment into a device tensor is fine), and the banned-token ids stay a CPU index tensor, which
a CUDA tensor accepts.

Thread: https://github.com/TransformerLensOrg/TransformerLens/issues/1508 (generate() device
mismatch: tokens left on the CPU while the model is on the GPU).
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
    mask = torch.zeros(len(prompts), width, dtype=torch.long, device=device)
    for i, p in enumerate(prompts):
        ids[i, width - len(p):] = torch.tensor(p)
        mask[i, width - len(p):] = 1
    return ids, mask


@torch.no_grad()
def sample(model, prompts, steps, device, banned=(0, 1), temperature=0.8, pad_id=0):
    ids, mask = left_pad(prompts, pad_id, device)
    banned = torch.tensor(banned)
    for _ in range(steps):
        position_ids = (mask.cumsum(-1) - 1).clamp(min=0)
        logits = model(ids, mask, position_ids)[:, -1] / temperature
        logits[:, banned] = float("-inf")
        nxt = torch.multinomial(logits.softmax(-1), num_samples=1)
        ids = torch.cat([ids, nxt], dim=1)
        mask = torch.cat([mask, torch.ones_like(nxt)], dim=1)
    return ids


if __name__ == "__main__":
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = TinyLM().to(device).eval()
    prompts = [[5, 9, 12], [7, 3, 3, 8, 21, 2], [40]]
    print(sample(model, prompts, steps=10, device=device).tolist())
