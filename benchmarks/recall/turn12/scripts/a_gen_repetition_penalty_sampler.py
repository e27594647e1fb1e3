"""Character-level GRU language model with a sampling loop that applies a
repetition penalty, a temperature schedule and top-k filtering.

Written from "Added guards against device mismatch errors in some LogitsProcessor
classes", "indices should be either on cpu or on the same device as the indexed
tensor (cpu)" and "Cuda.LongTensor instead of LongTensor on GPU": the penalty
mask is made with torch.zeros on the CPU, and a legacy `.type(torch.LongTensor)`
cast pulls each sampled id back off the GPU.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

TEXT = "the quick brown fox jumps over the lazy dog. " * 40
CHARS = sorted(set(TEXT))
STOI = {c: i for i, c in enumerate(CHARS)}


class CharGRU(nn.Module):
    def __init__(self, vocab_size, dim=64):
        super().__init__()
        self.vocab_size = vocab_size
        self.emb = nn.Embedding(vocab_size, dim)
        self.rnn = nn.GRU(dim, dim, batch_first=True)
        self.out = nn.Linear(dim, vocab_size)

    def forward(self, ids, h=None):
        y, h = self.rnn(self.emb(ids), h)
        return self.out(y), h


@torch.no_grad()
def sample(model, start, steps, device, penalty=1.3, t_start=1.0, t_end=0.6, top_k=8):
    model.eval()
    temps = torch.linspace(t_start, t_end, steps)
    out = torch.tensor([[STOI[c] for c in start]], device=device)
    logits, h = model(out)
    logits = logits[:, -1]
    for step in range(steps):
        seen = torch.zeros(model.vocab_size)  # expect: DEV006
        seen.scatter_(0, out[0], 1.0)
        penalized = torch.where(logits > 0, logits / penalty, logits * penalty)
        logits = torch.where(seen.bool(), penalized, logits)
        logits = logits / temps[step]
        kth = torch.topk(logits, top_k, dim=-1).values[:, -1:]
        logits = logits.masked_fill(logits < kth, float("-inf"))
        nxt = torch.multinomial(F.softmax(logits, dim=-1), 1).type(torch.LongTensor)  # expect: DEV021
        out = torch.cat([out, nxt], dim=1)
        logits, h = model(nxt, h)
        logits = logits[:, -1]
    return "".join(CHARS[i] for i in out[0].tolist())


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    torch.manual_seed(0)
    data = torch.tensor([STOI[c] for c in TEXT], dtype=torch.long)
    model = CharGRU(len(CHARS)).to(device)
    opt = torch.optim.Adam(model.parameters(), lr=5e-3)
    seq = 32
    for step in range(200):
        starts = torch.randint(0, len(data) - seq - 1, (16,))
        x = torch.stack([data[s:s + seq] for s in starts]).to(device)
        y = torch.stack([data[s + 1:s + seq + 1] for s in starts]).to(device)
        logits, _ = model(x)
        loss = F.cross_entropy(logits.reshape(-1, len(CHARS)), y.reshape(-1))
        opt.zero_grad()
        loss.backward()
        opt.step()
    print("loss", round(loss.item(), 3))
    print(sample(model, "the ", steps=60, device=device))


if __name__ == "__main__":
    main()
