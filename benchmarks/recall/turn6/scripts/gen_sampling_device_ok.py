"""Correct look-alike: a sampling loop whose prompt, positions and top-k mask are all made on
the model's device; the CPU temperature schedule is indexed with a Python int (a 0-dim
tensor, which may meet CUDA tensors)."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class LSTMLM(nn.Module):
    def __init__(self, vocab=30, dim=40, max_len=128):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim)
        self.pos = nn.Embedding(max_len, dim)
        self.rnn = nn.LSTM(dim, dim, batch_first=True)
        self.out = nn.Linear(dim, vocab)

    def forward(self, idx):
        pos = torch.arange(idx.size(1), device=idx.device)
        h, _ = self.rnn(self.emb(idx) + self.pos(pos))
        return self.out(h)


@torch.no_grad()
def sample(model, prompt_ids, steps, k=5):
    device = next(model.parameters()).device
    idx = torch.tensor([prompt_ids], device=device)
    temps = torch.linspace(1.0, 0.5, steps)
    for i in range(steps):
        logits = model(idx)[:, -1] / temps[i]
        kth = torch.topk(logits, k).values[:, -1:]
        logits = torch.where(logits < kth, torch.full_like(logits, float("-inf")), logits)
        nxt = torch.multinomial(F.softmax(logits, -1), 1)
        idx = torch.cat([idx, nxt], dim=1)
    return idx[0].tolist()


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = LSTMLM().to(device)
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    data = torch.arange(30).repeat(10)
    for _ in range(50):
        s = torch.randint(0, len(data) - 21, (16,))
        b = torch.stack([data[i:i + 21] for i in s]).to(device)
        loss = F.cross_entropy(model(b[:, :-1]).flatten(0, 1), b[:, 1:].flatten())
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(sample(model, [1, 2, 3], 10))


if __name__ == "__main__":
    main()
