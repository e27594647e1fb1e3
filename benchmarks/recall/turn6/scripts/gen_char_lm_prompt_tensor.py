"""Character-level GRU language model: trains on a toy corpus, then samples continuations of a
prompt with temperature annealing."""
import torch
import torch.nn as nn
import torch.nn.functional as F

TEXT = "the quick brown fox jumps over the lazy dog. " * 40
VOCAB = sorted(set(TEXT))
STOI = {c: i for i, c in enumerate(VOCAB)}


class CharLM(nn.Module):
    def __init__(self, vocab, dim=48):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim)
        self.rnn = nn.GRU(dim, dim, batch_first=True)
        self.out = nn.Linear(dim, vocab)

    def forward(self, idx, h=None):
        y, h = self.rnn(self.emb(idx), h)
        return self.out(y), h


def sample(model, prompt, steps, device, t_start=1.2, t_end=0.6):
    model.eval()
    idx = torch.tensor([[STOI[c] for c in prompt]])  # expect: DEV006
    temps = torch.linspace(t_start, t_end, steps)
    out = list(prompt)
    with torch.no_grad():
        logits, h = model(idx)
        for i in range(steps):
            probs = F.softmax(logits[:, -1] / temps[i], dim=-1)
            nxt = torch.multinomial(probs, 1)
            out.append(VOCAB[nxt.item()])
            logits, h = model(nxt, h)
    return "".join(out)


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    data = torch.tensor([STOI[c] for c in TEXT])
    model = CharLM(len(VOCAB)).to(device)
    opt = torch.optim.Adam(model.parameters(), lr=5e-3)
    for step in range(150):
        starts = torch.randint(0, len(data) - 33, (16,))
        batch = torch.stack([data[s:s + 33] for s in starts]).to(device)
        logits, _ = model(batch[:, :-1])
        loss = F.cross_entropy(logits.reshape(-1, len(VOCAB)), batch[:, 1:].reshape(-1))
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(sample(model, "the qu", 40, device))


if __name__ == "__main__":
    main()
