"""Sampling several continuations of one prompt: the prompt copied with repeat, positions and masks made on the
prompt's device or with *_like, a temperature schedule of Python floats."""
import torch
import torch.nn as nn


class TinyDecoder(nn.Module):
    def __init__(self, vocab=128, dim=64, max_len=256):
        super().__init__()
        self.tok = nn.Embedding(vocab, dim)
        self.pos = nn.Embedding(max_len, dim)
        self.layer = nn.TransformerEncoderLayer(dim, 4, 128, batch_first=True)
        self.out = nn.Linear(dim, vocab)

    def forward(self, ids, pad_mask):
        t = ids.size(1)
        pos = torch.arange(t, device=ids.device)
        causal = torch.triu(torch.ones(t, t, dtype=torch.bool, device=ids.device), diagonal=1)
        h = self.layer(self.tok(ids) + self.pos(pos), src_mask=causal, src_key_padding_mask=~pad_mask)
        return self.out(h)


@torch.no_grad()
def sample_n(model, prompt, n=4, steps=20):
    ids = prompt.repeat(n, 1)
    mask = torch.ones_like(ids, dtype=torch.bool)
    temps = [1.2 - 0.04 * i for i in range(steps)]
    for temp in temps:
        logits = model(ids, mask)[:, -1] / temp
        nxt = torch.multinomial(logits.softmax(-1), 1)
        ids = torch.cat([ids, nxt], dim=1)
        mask = torch.cat([mask, mask.new_ones(n, 1)], dim=1)
    return ids


if __name__ == "__main__":
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = TinyDecoder().to(device).eval()
    prompt = torch.tensor([[1, 5, 9, 2]], device=device)
    print(sample_n(model, prompt).tolist())
