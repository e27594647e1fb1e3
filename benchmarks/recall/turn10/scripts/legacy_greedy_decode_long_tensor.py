"""GRU seq2seq for digit-string reversal, trained with teacher forcing; evaluation decodes greedily,
feeding each predicted token back in, with the token ids cast the way older tutorials did.

Thread: https://github.com/akshat0123/GPT-1/pull/4 (fixed casting of Tensor to CUDA Tensor during
training: a legacy tensor-type cast sent the ids back to the CPU).
"""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

SOS, VOCAB, HIDDEN = 10, 11, 64


class Seq2Seq(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(VOCAB, HIDDEN)
        self.enc = nn.GRU(HIDDEN, HIDDEN, batch_first=True)
        self.cell = nn.GRUCell(HIDDEN, HIDDEN)
        self.out = nn.Linear(HIDDEN, VOCAB)

    def encode(self, src):
        return self.enc(self.emb(src))[1][0]

    def forward(self, src, tgt_in):
        h, logits = self.encode(src), []
        for t in range(tgt_in.size(1)):
            h = self.cell(self.emb(tgt_in[:, t]), h)
            logits.append(self.out(h))
        return torch.stack(logits, 1)


@torch.no_grad()
def greedy_decode(model, src, max_len):
    h = model.encode(src)
    tok = torch.full((src.size(0),), SOS, dtype=torch.long, device=src.device)
    out = []
    for _ in range(max_len):
        h = model.cell(model.emb(tok), h)
        tok = model.out(h).argmax(-1).type(torch.LongTensor)  # expect: DEV021
        out.append(tok)
    return torch.stack(out, 1)


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    src = torch.randint(0, 10, (2048, 8))
    tgt = src.flip(1)
    tgt_in = torch.cat([torch.full((2048, 1), SOS), tgt[:, :-1]], 1)
    model = Seq2Seq().to(device)
    opt = torch.optim.Adam(model.parameters(), lr=3e-3)
    for epoch in range(4):
        for s, ti, t in DataLoader(TensorDataset(src, tgt_in, tgt), batch_size=128, shuffle=True):
            s, ti, t = s.to(device), ti.to(device), t.to(device)
            loss = F.cross_entropy(model(s, ti).reshape(-1, VOCAB), t.reshape(-1))
            opt.zero_grad()
            loss.backward()
            opt.step()
    pred = greedy_decode(model, src[:64].to(device), max_len=8)
    print("exact match", (pred.cpu() == tgt[:64]).all(1).float().mean().item())


if __name__ == "__main__":
    main()
