"""The encoder-decoder with its initial hidden state made on the CPU."""
import torch
import torch.nn as nn

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
VOCAB, HIDDEN = 20, 32


class Encoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.embed = nn.Embedding(VOCAB, HIDDEN)
        self.rnn = nn.GRU(HIDDEN, HIDDEN, batch_first=True)

    def forward(self, source):
        h0 = torch.zeros(1, source.size(0), HIDDEN)
        return self.rnn(self.embed(source), h0)


torch.manual_seed(0)
encoder = Encoder().to(device)
head = nn.Linear(HIDDEN, VOCAB).to(device)
optimizer = torch.optim.Adam(list(encoder.parameters()) + list(head.parameters()), lr=3e-3)
for step in range(40):
    source = torch.randint(1, VOCAB, (16, 7)).to(device)
    output, _ = encoder(source)
    loss = nn.functional.cross_entropy(head(output).reshape(-1, VOCAB), source.reshape(-1))
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
