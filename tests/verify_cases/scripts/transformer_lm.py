"""A tiny causal transformer language model, its mask moved to the device."""
import torch
import torch.nn as nn

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
VOCAB, WIDTH, CONTEXT = 50, 32, 16


class TinyLM(nn.Module):
    def __init__(self):
        super().__init__()
        self.embed = nn.Embedding(VOCAB, WIDTH)
        self.position = nn.Parameter(torch.zeros(CONTEXT, WIDTH))
        layer = nn.TransformerEncoderLayer(WIDTH, 4, 64, dropout=0.0, batch_first=True)
        self.blocks = nn.TransformerEncoder(layer, 2)
        self.head = nn.Linear(WIDTH, VOCAB)

    def forward(self, tokens):
        mask = nn.Transformer.generate_square_subsequent_mask(tokens.size(1)).to(tokens.device)
        hidden = self.embed(tokens) + self.position[: tokens.size(1)]
        return self.head(self.blocks(hidden, mask=mask, is_causal=True))


torch.manual_seed(0)
corpus = torch.randint(0, VOCAB, (10_000,))
model = TinyLM().to(device)
optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
for step in range(30):
    starts = torch.randint(0, len(corpus) - CONTEXT - 1, (8,))
    batch = torch.stack([corpus[s:s + CONTEXT + 1] for s in starts]).to(device)
    logits = model(batch[:, :-1])
    loss = nn.functional.cross_entropy(logits.reshape(-1, VOCAB), batch[:, 1:].reshape(-1))
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
