"""Sampling with a frequency penalty: a count of already generated tokens is kept and scaled
into the logits at every step."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class TinyLM(nn.Module):
    def __init__(self, vocab=50, d=32):
        super().__init__()
        self.emb = nn.Embedding(vocab, d)
        self.proj = nn.Linear(d, vocab)

    def forward(self, idx):
        return self.proj(self.emb(idx).mean(1))


def sample(model, prompt, steps, device, penalty=0.7):
    vocab = model.proj.out_features
    seq = prompt.to(device)
    counts = torch.zeros(seq.size(0), vocab)  # expect: DEV006
    for _ in range(steps):
        logits = model(seq) - penalty * counts
        nxt = torch.multinomial(F.softmax(logits, -1), 1)
        counts.scatter_add_(1, nxt.cpu(), torch.ones(seq.size(0), 1))
        seq = torch.cat([seq, nxt], 1)
    return seq


if __name__ == "__main__":
    device = "cuda" if torch.cuda.is_available() else "cpu"
    lm = TinyLM().to(device)
    print(sample(lm, torch.randint(0, 50, (2, 3)), 12, device).shape)
