"""GRU encoder-decoder with teacher forcing on a toy copy task (sequence-first tensors)."""
import random

import torch
import torch.nn as nn
import torch.nn.functional as F

SOS_token, EOS_token, VOCAB, HIDDEN = 0, 1, 20, 32
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")


class EncoderRNN(nn.Module):
    def __init__(self, vocab, hidden):
        super().__init__()
        self.hidden_size = hidden
        self.embedding = nn.Embedding(vocab, hidden)
        self.gru = nn.GRU(hidden, hidden)

    def forward(self, src):
        hidden = self.init_hidden(src.size(1))
        outputs, hidden = self.gru(self.embedding(src), hidden)
        return outputs, hidden

    def init_hidden(self, batch_size):
        return torch.zeros(1, batch_size, self.hidden_size)  # expect: DEV006


class AttnDecoderRNN(nn.Module):
    def __init__(self, hidden, vocab):
        super().__init__()
        self.embedding = nn.Embedding(vocab, hidden)
        self.attn = nn.Linear(hidden * 2, 1)
        self.gru = nn.GRU(hidden * 2, hidden)
        self.out = nn.Linear(hidden, vocab)

    def forward(self, token, hidden, encoder_outputs):
        embedded = self.embedding(token)
        scores = self.attn(torch.cat([encoder_outputs, hidden.expand_as(encoder_outputs)], dim=2))
        weights = F.softmax(scores, dim=0)
        context = (weights * encoder_outputs).sum(0, keepdim=True)
        output, hidden = self.gru(torch.cat([embedded, context], dim=2), hidden)
        return F.log_softmax(self.out(output[0]), dim=1), hidden


def random_batch(batch_size=4, length=6):
    seq = torch.randint(2, VOCAB, (length, batch_size))
    return seq, torch.cat([seq, torch.full((1, batch_size), EOS_token)], dim=0)


encoder = EncoderRNN(VOCAB, HIDDEN).to(device)
decoder = AttnDecoderRNN(HIDDEN, VOCAB).to(device)
enc_opt = torch.optim.SGD(encoder.parameters(), lr=0.05)
dec_opt = torch.optim.SGD(decoder.parameters(), lr=0.05)
criterion = nn.NLLLoss()

for iteration in range(3):
    src, trg = random_batch()
    src, trg = src.to(device), trg.to(device)
    enc_opt.zero_grad()
    dec_opt.zero_grad()
    encoder_outputs, hidden = encoder(src)
    decoder_input = torch.tensor([[SOS_token] * src.size(1)])  # expect: DEV006
    loss = 0.0
    teacher_forcing = random.random() < 0.5
    for t in range(trg.size(0)):
        output, hidden = decoder(decoder_input, hidden, encoder_outputs)
        loss = loss + criterion(output, trg[t])
        decoder_input = trg[t].unsqueeze(0) if teacher_forcing else output.argmax(1).unsqueeze(0).detach()
    loss.backward()
    enc_opt.step()
    dec_opt.step()
    print(f"iter {iteration} loss {loss.item() / trg.size(0):.4f}")
