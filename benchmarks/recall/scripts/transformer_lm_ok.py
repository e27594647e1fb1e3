"""Word-level Transformer LM: registered positional buffer, masks made on the input's device."""
import math

import torch
import torch.nn as nn


class PositionalEncoding(nn.Module):
    def __init__(self, d_model, dropout=0.1, max_len=256):
        super().__init__()
        self.dropout = nn.Dropout(dropout)
        position = torch.arange(max_len).unsqueeze(1)
        div_term = torch.exp(torch.arange(0, d_model, 2) * (-math.log(10000.0) / d_model))
        pe = torch.zeros(max_len, 1, d_model)
        pe[:, 0, 0::2] = torch.sin(position * div_term)
        pe[:, 0, 1::2] = torch.cos(position * div_term)
        self.register_buffer("pe", pe)

    def forward(self, x):
        return self.dropout(x + self.pe[: x.size(0)])


class TransformerModel(nn.Module):
    def __init__(self, ntoken, d_model=32, nhead=4, d_hid=64, nlayers=2):
        super().__init__()
        self.pos_encoder = PositionalEncoding(d_model)
        self.encoder = nn.TransformerEncoder(nn.TransformerEncoderLayer(d_model, nhead, d_hid), nlayers)
        self.embedding = nn.Embedding(ntoken, d_model)
        self.d_model = d_model
        self.linear = nn.Linear(d_model, ntoken)

    def forward(self, src):
        seq_len = src.size(0)
        src_mask = nn.Transformer.generate_square_subsequent_mask(seq_len, device=src.device)
        x = self.pos_encoder(self.embedding(src) * math.sqrt(self.d_model))
        pad_mask = torch.zeros(src.size(1), seq_len, dtype=torch.bool, device=src.device)
        return self.linear(self.encoder(x, src_mask, src_key_padding_mask=pad_mask))


def batchify(data, bsz, device):
    nbatch = data.size(0) // bsz
    return data[: nbatch * bsz].view(bsz, -1).t().contiguous().to(device)


device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
ntokens, bptt = 50, 8
train_data = batchify(torch.randint(0, ntokens, (400,)), 4, device)
model = TransformerModel(ntokens).to(device)
criterion = nn.CrossEntropyLoss()
optimizer = torch.optim.SGD(model.parameters(), lr=1.0)

model.train()
for batch, i in enumerate(range(0, 3 * bptt, bptt)):
    data, targets = train_data[i:i + bptt], train_data[i + 1:i + 1 + bptt].reshape(-1)
    output = model(data)
    loss = criterion(output.view(-1, ntokens), targets)
    optimizer.zero_grad()
    loss.backward()
    torch.nn.utils.clip_grad_norm_(model.parameters(), 0.5)
    optimizer.step()
    print(f"batch {batch} loss {loss.item():.3f} ppl {math.exp(loss.item()):.1f}")
