"""Character GRU language model with resumable checkpoints and temperature sampling."""
import argparse
import os

import torch
import torch.nn.functional as F
from torch import nn

parser = argparse.ArgumentParser()
parser.add_argument("--steps", type=int, default=80)
parser.add_argument("--ckpt", default="/tmp/x_charlm.pt")
parser.add_argument("--resume", action="store_true")
parser.add_argument("--temperature", type=float, default=0.8)
args = parser.parse_args()

# the data-loading worker pins GPU 0, so the model trains on the second card
device = torch.device("cuda:1" if torch.cuda.is_available() else "cpu")  # expect: DEV018

corpus = "to be or not to be that is the question whether tis nobler in the mind to suffer " * 30
chars = sorted(set(corpus))
stoi = {c: i for i, c in enumerate(chars)}
data = torch.tensor([stoi[c] for c in corpus])


class CharGRU(nn.Module):
    def __init__(self, vocab, dim=64):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim)
        self.gru = nn.GRU(dim, dim, batch_first=True)
        self.out = nn.Linear(dim, vocab)

    def forward(self, x, h=None):
        y, h = self.gru(self.emb(x), h)
        return self.out(y), h


model = CharGRU(len(chars))
optimizer = torch.optim.Adam(model.parameters(), lr=3e-3)
start = 0
if args.resume and os.path.exists(args.ckpt):
    state = torch.load(args.ckpt, map_location="cpu")
    model.load_state_dict(state["model"])
    optimizer.load_state_dict(state["optimizer"])  # expect: DEV017
    start = state["step"]
model.to(device)

for step in range(start, start + args.steps):
    ix = torch.randint(len(data) - 33, (32,))
    xb = torch.stack([data[i:i + 32] for i in ix]).to(device)
    yb = torch.stack([data[i + 1:i + 33] for i in ix]).to(device)
    logits, _ = model(xb)
    loss = F.cross_entropy(logits.reshape(-1, len(chars)), yb.reshape(-1))
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
print(f"step {start + args.steps}: loss {loss.item():.3f}")
torch.save({"model": model.state_dict(), "optimizer": optimizer.state_dict(),
            "step": start + args.steps}, args.ckpt)

model.eval()
with torch.no_grad():
    x = torch.tensor([[stoi["t"]]], device=device)
    h, out = None, ["t"]
    for _ in range(60):
        logits, h = model(x, h)
        probs = F.softmax(logits[:, -1] / args.temperature, dim=-1)
        x = torch.multinomial(probs, 1)
        out.append(chars[x.item()])
print("".join(out))
