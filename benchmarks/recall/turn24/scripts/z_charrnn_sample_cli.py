"""Train (--train) or sample from a character-level GRU; sampling is meant for laptops too."""
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F

TEXT = "to be or not to be, that is the question. whether tis nobler in the mind to suffer. " * 10
CHARS = sorted(set(TEXT))


class CharRNN(nn.Module):
    def __init__(self, vocab, hidden=64, layers=1):
        super().__init__()
        self.layers, self.hidden = layers, hidden
        self.emb = nn.Embedding(vocab, 32)
        self.rnn = nn.GRU(32, hidden, layers, batch_first=True)
        self.out = nn.Linear(hidden, vocab)

    def forward(self, x, h=None):
        o, h = self.rnn(self.emb(x), h)
        return self.out(o), h


def train(args):
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    data = torch.tensor([CHARS.index(c) for c in TEXT])
    model = CharRNN(len(CHARS)).to(device)
    opt = torch.optim.Adam(model.parameters(), lr=5e-3)
    for step in range(args.steps):
        i = torch.randint(0, len(data) - 33, (16,))
        x = torch.stack([data[j:j + 32] for j in i]).to(device)
        y = torch.stack([data[j + 1:j + 33] for j in i]).to(device)
        logits, _ = model(x)
        loss = F.cross_entropy(logits.reshape(-1, len(CHARS)), y.reshape(-1))
        opt.zero_grad()
        loss.backward()
        opt.step()
    torch.save({"model": model.state_dict(), "chars": CHARS}, args.checkpoint)
    print("saved", args.checkpoint, "loss", round(loss.item(), 3))


@torch.no_grad()
def sample(args):
    device = torch.device("cuda")  # expect: DEV001
    ckpt = torch.load(args.checkpoint)  # expect: DEV008
    chars = ckpt["chars"]
    model = CharRNN(len(chars))
    model.load_state_dict(ckpt["model"])
    model.to(device).eval()
    x = torch.tensor([[chars.index(c) for c in args.prime]], device=device)
    h = None
    out = list(args.prime)
    for _ in range(args.length):
        logits, h = model(x, h)
        probs = F.softmax(logits[0, -1] / args.temperature, dim=-1)
        nxt = torch.multinomial(probs, 1).item()
        out.append(chars[nxt])
        x = torch.tensor([[nxt]], device=device)
    print("".join(out))


if __name__ == "__main__":
    p = argparse.ArgumentParser()
    p.add_argument("--train", action="store_true")
    p.add_argument("--steps", type=int, default=50)
    p.add_argument("--checkpoint", default="charrnn.pt")
    p.add_argument("--prime", default="to be")
    p.add_argument("--length", type=int, default=60)
    p.add_argument("--temperature", type=float, default=0.8)
    args = p.parse_args()
    train(args) if args.train else sample(args)
