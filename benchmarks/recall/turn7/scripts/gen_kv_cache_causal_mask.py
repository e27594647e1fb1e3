"""Single-head attention block used in a decoder; the causal mask is rebuilt from the sequence
length on each forward call."""
import torch
import torch.nn as nn


class CausalSelfAttention(nn.Module):
    def __init__(self, d=32):
        super().__init__()
        self.qkv = nn.Linear(d, 3 * d)
        self.proj = nn.Linear(d, d)
        self.scale = d ** -0.5

    def forward(self, x):
        T = x.size(1)
        q, k, v = self.qkv(x).chunk(3, dim=-1)
        att = (q @ k.transpose(1, 2)) * self.scale
        causal = torch.tril(torch.ones(T, T, dtype=torch.bool))  # expect: DEV006
        att = att.masked_fill(~causal, float("-inf")).softmax(-1)
        return self.proj(att @ v)


class Decoder(nn.Module):
    def __init__(self, vocab=40, d=32):
        super().__init__()
        self.emb = nn.Embedding(vocab, d)
        self.attn = CausalSelfAttention(d)
        self.head = nn.Linear(d, vocab)

    def forward(self, idx):
        return self.head(self.attn(self.emb(idx)))


if __name__ == "__main__":
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = Decoder().to(device)
    idx = torch.randint(0, 40, (2, 5), device=device)
    with torch.no_grad():
        for _ in range(6):
            nxt = model(idx)[:, -1].argmax(-1, keepdim=True)
            idx = torch.cat([idx, nxt], 1)
    print(idx.tolist())
