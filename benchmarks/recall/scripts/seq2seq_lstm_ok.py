"""LSTM seq2seq: initial states made on the device of the input, decoder start tokens on the device."""
import torch
import torch.nn as nn

PAD, SOS, VOCAB, EMB, HID = 0, 1, 24, 16, 32


class Encoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.embedding = nn.Embedding(VOCAB, EMB, padding_idx=PAD)
        self.rnn = nn.LSTM(EMB, HID, num_layers=2, dropout=0.1)

    def init_hidden(self, batch_size):
        weight = next(self.parameters())
        return (weight.new_zeros(2, batch_size, HID), weight.new_zeros(2, batch_size, HID))

    def forward(self, src):
        _, (h, c) = self.rnn(self.embedding(src), self.init_hidden(src.size(1)))
        return h, c


class Decoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.embedding = nn.Embedding(VOCAB, EMB, padding_idx=PAD)
        self.rnn = nn.LSTM(EMB, HID, num_layers=2, dropout=0.1)
        self.fc_out = nn.Linear(HID, VOCAB)

    def forward(self, token, hidden, cell):
        output, (hidden, cell) = self.rnn(self.embedding(token.unsqueeze(0)), (hidden, cell))
        return self.fc_out(output.squeeze(0)), hidden, cell


class Seq2Seq(nn.Module):
    def __init__(self):
        super().__init__()
        self.encoder, self.decoder = Encoder(), Decoder()

    def forward(self, src, trg):
        trg_len, batch_size = trg.shape
        outputs = torch.zeros(trg_len, batch_size, VOCAB, device=src.device)
        hidden, cell = self.encoder(src)
        token = torch.full((batch_size,), SOS, dtype=torch.long, device=src.device)
        for t in range(trg_len):
            logits, hidden, cell = self.decoder(token, hidden, cell)
            outputs[t] = logits
            token = trg[t]
        return outputs


device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
model = Seq2Seq().to(device)
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
criterion = nn.CrossEntropyLoss(ignore_index=PAD)
pairs = [(torch.randint(2, VOCAB, (7, 4)), torch.randint(2, VOCAB, (5, 4))) for _ in range(3)]

model.train()
for i, (src, trg) in enumerate(pairs):
    src, trg = src.to(device), trg.to(device)
    optimizer.zero_grad()
    output = model(src, trg)
    loss = criterion(output.view(-1, VOCAB), trg.view(-1))
    loss.backward()
    nn.utils.clip_grad_norm_(model.parameters(), 1.0)
    optimizer.step()
    print(f"batch {i} loss {loss.item():.4f}")
