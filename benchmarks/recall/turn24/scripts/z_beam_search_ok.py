"""Beam search over a small GRU decoder, with per-beam scores and finished flags."""
import torch
import torch.nn as nn
import torch.nn.functional as F

BOS, EOS, VOCAB = 1, 2, 20


class Decoder(nn.Module):
    def __init__(self, hidden=48):
        super().__init__()
        self.emb = nn.Embedding(VOCAB, hidden)
        self.pos = nn.Embedding(64, hidden)
        self.rnn = nn.GRU(hidden, hidden, batch_first=True)
        self.out = nn.Linear(hidden, VOCAB)

    def forward(self, tokens, h=None, offset=0):
        pos = torch.arange(offset, offset + tokens.size(1), device=tokens.device)
        o, h = self.rnn(self.emb(tokens) + self.pos(pos), h)
        return self.out(o), h


@torch.no_grad()
def beam_search(model, batch, beam=4, max_len=12, length_penalty=0.7):
    device = next(model.parameters()).device
    tokens = torch.full((batch * beam, 1), BOS, dtype=torch.long, device=device)
    beam_scores = torch.zeros(batch, beam, device=device)
    beam_scores[:, 1:] = -1e9
    finished = torch.zeros(batch * beam, dtype=torch.bool, device=device)
    h = None
    for step in range(max_len):
        logits, h = model(tokens[:, -1:], h, offset=step)
        logp = F.log_softmax(logits[:, -1], dim=-1)
        logp[finished] = -1e9
        logp[finished, EOS] = 0.0
        total = (beam_scores.view(-1, 1) + logp).view(batch, -1)
        beam_scores, flat = total.topk(beam, dim=-1)
        origin = flat // VOCAB + torch.arange(batch, device=device).unsqueeze(1) * beam
        next_tok = (flat % VOCAB).view(-1, 1)
        origin = origin.view(-1)
        tokens = torch.cat([tokens[origin], next_tok], dim=1)
        h = h[:, origin]
        finished = finished[origin] | (next_tok.squeeze(1) == EOS)
        if finished.all():
            break
    lengths = (tokens != EOS).sum(1).float().view(batch, beam)
    best = (beam_scores / lengths ** length_penalty).argmax(1)
    rows = best + torch.arange(batch, device=device) * beam
    return tokens[rows].tolist(), beam_scores.gather(1, best[:, None]).squeeze(1).tolist()


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = Decoder().to(device)
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    seqs = torch.tensor([[BOS, 5, 6, 7, 8, EOS, 0], [BOS, 9, 10, 11, EOS, 0, 0]]).repeat(16, 1)
    for step in range(60):
        x, y = seqs[:, :-1].to(device), seqs[:, 1:].to(device)
        logits, _ = model(x)
        loss = F.cross_entropy(logits.reshape(-1, VOCAB), y.reshape(-1), ignore_index=0)
        opt.zero_grad()
        loss.backward()
        opt.step()
    print("train loss", round(loss.item(), 3))
    hyps, scores = beam_search(model, batch=2)
    for hyp, s in zip(hyps, scores):
        print(hyp, round(s, 3))


if __name__ == "__main__":
    main()
