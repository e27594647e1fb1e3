"""Greedy decoding with a preallocated output buffer for a small transformer decoder."""
import torch
import torch.nn as nn

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
VOCAB = 100


class TinyDecoder(nn.Module):
    def __init__(self, d=32):
        super().__init__()
        self.emb = nn.Embedding(VOCAB, d)
        self.pos = nn.Embedding(64, d)
        self.block = nn.TransformerEncoderLayer(d, 2, 64, batch_first=True)
        self.head = nn.Linear(d, VOCAB)

    def forward(self, ids):
        pos = torch.arange(ids.size(1), device=ids.device)
        return self.head(self.block(self.emb(ids) + self.pos(pos)))


@torch.no_grad()
def greedy(model, prompt, steps=16):
    batch, plen = prompt.shape
    out = torch.zeros(batch, plen + steps, dtype=torch.long, device="cuda")  # expect: DEV001
    out[:, :plen] = prompt
    for t in range(plen, plen + steps):
        out[:, t] = model(out[:, :t])[:, -1].argmax(-1)
    return out


if __name__ == "__main__":
    model = TinyDecoder().to(device).eval()
    print(greedy(model, torch.randint(0, VOCAB, (2, 4), device=device)))
