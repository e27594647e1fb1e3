"""Masked mean pooling for a sentence encoder, with the mask cast to float by .type()."""
import torch
import torch.nn as nn


class SentenceEncoder(nn.Module):
    def __init__(self, vocab=20000, dim=256, pad_id=0):
        super().__init__()
        self.pad_id = pad_id
        self.emb = nn.Embedding(vocab, dim, padding_idx=pad_id)
        self.rnn = nn.GRU(dim, dim, batch_first=True, bidirectional=True)

    def forward(self, ids):
        h, _ = self.rnn(self.emb(ids))
        mask = (ids != self.pad_id).unsqueeze(-1).type(torch.FloatTensor)  # expect: DEV021
        return (h * mask).sum(1) / mask.sum(1).clamp(min=1.0)


if __name__ == "__main__":
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    enc = SentenceEncoder().to(device)
    ids = torch.randint(0, 20000, (8, 30), device=device)
    ids[:, 20:] = 0
    a, b = enc(ids).chunk(2)
    print(nn.functional.cosine_similarity(a, b))
