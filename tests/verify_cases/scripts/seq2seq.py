"""A GRU encoder-decoder with teacher forcing on a toy copy task."""
import torch
import torch.nn as nn

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
VOCAB, HIDDEN, LENGTH = 20, 32, 7


class Seq2Seq(nn.Module):
    def __init__(self):
        super().__init__()
        self.embed = nn.Embedding(VOCAB, HIDDEN)
        self.encoder = nn.GRU(HIDDEN, HIDDEN, batch_first=True)
        self.decoder = nn.GRU(HIDDEN, HIDDEN, batch_first=True)
        self.out = nn.Linear(HIDDEN, VOCAB)

    def forward(self, source, target):
        _, hidden = self.encoder(self.embed(source))
        start = torch.zeros(target.size(0), 1, dtype=torch.long, device=target.device)
        decoder_input = torch.cat([start, target[:, :-1]], dim=1)
        output, _ = self.decoder(self.embed(decoder_input), hidden)
        return self.out(output)


torch.manual_seed(0)
model = Seq2Seq().to(device)
optimizer = torch.optim.Adam(model.parameters(), lr=3e-3)
for step in range(40):
    source = torch.randint(1, VOCAB, (16, LENGTH), device=device)
    logits = model(source, source)
    loss = nn.functional.cross_entropy(logits.reshape(-1, VOCAB), source.reshape(-1))
    optimizer.zero_grad()
    loss.backward()
    nn.utils.clip_grad_norm_(model.parameters(), 1.0)
    optimizer.step()
