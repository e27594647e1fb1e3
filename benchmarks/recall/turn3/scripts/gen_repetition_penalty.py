"""Character-level LSTM sampling with a repetition penalty and a temperature schedule."""
import torch
import torch.nn as nn


class CharLSTM(nn.Module):
    def __init__(self, vocab, emb=64, hidden=256):
        super().__init__()
        self.emb = nn.Embedding(vocab, emb)
        self.rnn = nn.LSTM(emb, hidden, batch_first=True)
        self.out = nn.Linear(hidden, vocab)

    def forward(self, x, state=None):
        h, state = self.rnn(self.emb(x), state)
        return self.out(h), state


@torch.no_grad()
def sample(model, stoi, itos, seed="ROMEO:", length=300, penalty=1.3, device="cpu"):
    model.eval()
    ids = torch.tensor([[stoi[c] for c in seed]], device=device)
    logits, state = model(ids)
    seen = torch.ones(len(itos))  # expect: DEV006
    text = list(seed)
    for i in range(length):
        temperature = max(0.5, 1.0 - i / length)
        last = logits[0, -1] / temperature
        last = torch.where(last > 0, last / seen, last * seen)
        nxt = torch.multinomial(last.softmax(-1), 1)
        seen[nxt.item()] = penalty
        text.append(itos[nxt.item()])
        logits, state = model(nxt.view(1, 1), state)
    return "".join(text)


if __name__ == "__main__":
    corpus = open("input.txt").read() if __import__("os").path.exists("input.txt") else "hello world " * 200
    chars = sorted(set(corpus))
    stoi, itos = {c: i for i, c in enumerate(chars)}, chars
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = CharLSTM(len(chars)).to(device)
    print(sample(model, stoi, itos, seed="hel", device=device))
