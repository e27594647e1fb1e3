"""Hand-written beam search for a tiny GRU language model."""
import torch
import torch.nn as nn
import torch.nn.functional as F

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
VOCAB, HIDDEN, BOS, EOS = 50, 64, 1, 2


class TinyLM(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(VOCAB, HIDDEN)
        self.rnn = nn.GRU(HIDDEN, HIDDEN, batch_first=True)
        self.out = nn.Linear(HIDDEN, VOCAB)

    def forward(self, tokens, h=None):
        y, h = self.rnn(self.emb(tokens), h)
        return self.out(y[:, -1]), h


@torch.no_grad()
def beam_search(model, batch_size, num_beams=4, max_len=12):
    tokens = torch.full((batch_size * num_beams, 1), BOS, dtype=torch.long, device=device)
    scores = torch.zeros(batch_size, num_beams, device=device)
    scores[:, 1:] = float("-inf")
    beam_offsets = torch.arange(batch_size) * num_beams  # expect: DEV006
    h = None
    for _ in range(max_len):
        logits, h = model(tokens[:, -1:], h)
        logp = F.log_softmax(logits, dim=-1).view(batch_size, num_beams, VOCAB)
        cand = (scores.unsqueeze(-1) + logp).view(batch_size, -1)
        scores, flat = cand.topk(num_beams, dim=-1)
        beam_idx = (flat // VOCAB + beam_offsets.unsqueeze(1)).view(-1)
        next_tok = (flat % VOCAB).view(-1, 1)
        tokens = torch.cat([tokens[beam_idx], next_tok], dim=1)
        h = h[:, beam_idx]
    return tokens.view(batch_size, num_beams, -1)[:, 0]


if __name__ == "__main__":
    lm = TinyLM().to(device).eval()
    print(beam_search(lm, batch_size=3).shape)
