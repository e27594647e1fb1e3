"""Batched sampling and beam bookkeeping with every helper tensor made on the ids' device."""
import torch
import torch.nn as nn
import torch.nn.functional as F

device = "cuda" if torch.cuda.is_available() else "cpu"
VOCAB, EOS, PAD = 64, 2, 0


class Decoder(nn.Module):
    def __init__(self, d=48):
        super().__init__()
        self.emb = nn.Embedding(VOCAB, d)
        self.rnn = nn.GRU(d, d, batch_first=True)
        self.lm_head = nn.Linear(d, VOCAB)

    def forward(self, ids):
        return self.lm_head(self.rnn(self.emb(ids))[0])


@torch.no_grad()
def sample(model, prompt, max_new_tokens=12, temperature=0.8):
    ids = prompt.to(device)
    finished = torch.zeros(ids.size(0), dtype=torch.bool, device=ids.device)
    temp = torch.tensor(temperature)
    for _ in range(max_new_tokens):
        logits = model(ids)[:, -1] / temp
        nxt = torch.multinomial(logits.softmax(-1), 1).squeeze(1)
        nxt = nxt.masked_fill(finished, PAD)
        finished |= nxt == EOS
        ids = torch.cat([ids, nxt[:, None]], dim=1)
    return ids


@torch.no_grad()
def beam_step(scores, logp, batch_size, num_beams):
    cand = (scores.unsqueeze(-1) + logp).view(batch_size, -1)
    scores, flat = cand.topk(num_beams, dim=-1)
    offsets = torch.arange(batch_size, device=flat.device) * num_beams
    return scores, (flat // VOCAB + offsets.unsqueeze(1)).view(-1)


if __name__ == "__main__":
    model = Decoder().to(device).eval()
    out = sample(model, torch.randint(3, VOCAB, (4, 5)))
    logp = F.log_softmax(model(out)[:, -1], -1).view(2, 2, VOCAB)
    print(out.shape, beam_step(torch.zeros(2, 2, device=device), logp, 2, 2)[1].tolist())
