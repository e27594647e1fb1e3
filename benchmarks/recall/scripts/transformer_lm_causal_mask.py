"""Character-level GPT-style language model; positions and the causal mask are built in forward()."""
import torch
import torch.nn as nn
import torch.nn.functional as F

text = "to be or not to be that is the question " * 8
chars = sorted(set(text))
stoi = {c: i for i, c in enumerate(chars)}
data = torch.tensor([stoi[c] for c in text], dtype=torch.long)
vocab_size, block_size, n_embd = len(chars), 16, 32


class MiniGPT(nn.Module):
    def __init__(self):
        super().__init__()
        self.tok_emb = nn.Embedding(vocab_size, n_embd)
        self.pos_emb = nn.Embedding(block_size, n_embd)
        layer = nn.TransformerEncoderLayer(n_embd, nhead=4, dim_feedforward=64, batch_first=True, norm_first=True)
        self.blocks = nn.TransformerEncoder(layer, num_layers=2)
        self.ln_f = nn.LayerNorm(n_embd)
        self.head = nn.Linear(n_embd, vocab_size, bias=False)

    def forward(self, idx, targets=None):
        B, T = idx.shape
        pos = torch.arange(0, T, dtype=torch.long)  # expect: DEV006
        x = self.tok_emb(idx) + self.pos_emb(pos)
        causal = torch.triu(torch.ones(T, T), diagonal=1).bool()  # expect: DEV006
        x = self.ln_f(self.blocks(x, mask=causal))
        logits = self.head(x)
        loss = None if targets is None else F.cross_entropy(logits.view(-1, vocab_size), targets.view(-1))
        return logits, loss


def get_batch(batch_size=4):
    ix = torch.randint(len(data) - block_size - 1, (batch_size,))
    x = torch.stack([data[i:i + block_size] for i in ix])
    y = torch.stack([data[i + 1:i + block_size + 1] for i in ix])
    return x, y


device = "cuda" if torch.cuda.is_available() else "cpu"
model = MiniGPT().to(device)
optimizer = torch.optim.AdamW(model.parameters(), lr=3e-3)
for it in range(3):
    xb, yb = get_batch()
    xb, yb = xb.to(device), yb.to(device)
    _, loss = model(xb, yb)
    optimizer.zero_grad(set_to_none=True)
    loss.backward()
    optimizer.step()
    print(f"iter {it} loss {loss.item():.4f}")
