"""Character GPT with learned positions; sampling keeps everything on the model's device."""
import torch
import torch.nn as nn
import torch.nn.functional as F

TEXT = "to be or not to be, that is the question. " * 25
device = "cuda" if torch.cuda.is_available() else "cpu"


class CharGPT(nn.Module):
    def __init__(self, vocab, d=48, n_head=4, n_layer=2, block_size=32):
        super().__init__()
        self.block_size = block_size
        self.tok = nn.Embedding(vocab, d)
        self.pos = nn.Embedding(block_size, d)
        layer = nn.TransformerEncoderLayer(d, n_head, 4 * d, batch_first=True, norm_first=True)
        self.encoder = nn.TransformerEncoder(layer, n_layer)
        self.head = nn.Linear(d, vocab)
        self.register_buffer("causal", torch.triu(torch.ones(block_size, block_size, dtype=torch.bool), 1))

    def forward(self, idx):
        T = idx.size(1)
        pos = torch.arange(T, device=idx.device)
        x = self.tok(idx) + self.pos(pos)[None]
        x = self.encoder(x, mask=self.causal[:T, :T])
        return self.head(x)


@torch.no_grad()
def sample(model, prompt_ids, steps, temperature=1.0):
    model.eval()
    idx = prompt_ids.to(next(model.parameters()).device)
    for _ in range(steps):
        logits = model(idx[:, -model.block_size:])[:, -1] / temperature
        nxt = torch.multinomial(F.softmax(logits, dim=-1), 1)
        idx = torch.cat([idx, nxt], dim=1)
    return idx[0].cpu()


chars = sorted(set(TEXT))
stoi = {c: i for i, c in enumerate(chars)}
data = torch.tensor([stoi[c] for c in TEXT])

model = CharGPT(len(chars)).to(device)
opt = torch.optim.AdamW(model.parameters(), lr=3e-3)
for step in range(20):
    ix = torch.randint(0, len(data) - 33, (8,))
    xb = torch.stack([data[i:i + 32] for i in ix]).to(device)
    yb = torch.stack([data[i + 1:i + 33] for i in ix]).to(device)
    loss = F.cross_entropy(model(xb).flatten(0, 1), yb.flatten())
    opt.zero_grad()
    loss.backward()
    opt.step()

prompt = torch.tensor([[stoi[c] for c in "to be"]])
out = sample(model, prompt, 30)
print("".join(chars[i] for i in out.tolist()))
