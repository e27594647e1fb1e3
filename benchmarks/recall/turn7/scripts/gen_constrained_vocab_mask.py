"""Constrained decoding for a tiny character LM: only digits and the end token may be sampled,
enforced with an additive mask over the vocabulary."""
import torch
import torch.nn as nn

VOCAB = list("0123456789abcdef") + ["<eos>"]


class CharLM(nn.Module):
    def __init__(self, v=len(VOCAB), d=32):
        super().__init__()
        self.emb = nn.Embedding(v, d)
        self.rnn = nn.GRU(d, d, batch_first=True)
        self.out = nn.Linear(d, v)

    def forward(self, idx, h=None):
        y, h = self.rnn(self.emb(idx), h)
        return self.out(y[:, -1]), h


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = CharLM().to(device).eval()
    allowed = [VOCAB.index(c) for c in "0123456789"] + [VOCAB.index("<eos>")]
    mask = torch.full((1, len(VOCAB)), float("-inf"))  # expect: DEV006
    mask[0, allowed] = 0.0
    idx = torch.zeros(4, 1, dtype=torch.long, device=device)
    h = None
    out = []
    with torch.no_grad():
        for _ in range(10):
            logits, h = model(idx, h)
            probs = torch.softmax(logits + mask, dim=-1)
            idx = torch.multinomial(probs, 1)
            out.append(idx)
    print(torch.cat(out, 1).tolist())


if __name__ == "__main__":
    main()
