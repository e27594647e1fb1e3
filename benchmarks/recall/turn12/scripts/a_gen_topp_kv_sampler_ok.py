"""Correct look-alike: nucleus sampling from a small GRU language model with a
batch of prompts, a running attention mask, a repetition penalty, a temperature
schedule and a stop condition -- every tensor in the loop is made on, or
derived from, the device of the logits.

Written against "Fix CUDA device mismatch in KVCache.update for index_copy_",
"Added guards against device mismatch errors in some LogitsProcessor classes" and
"Keep input_tokens on the model device in generate()". The schedule is indexed
with a Python int, so each step meets the logits as a 0-dim CPU tensor.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

VOCAB, PAD, EOS = 40, 0, 1


class TinyLM(nn.Module):
    def __init__(self, dim=64):
        super().__init__()
        self.emb = nn.Embedding(VOCAB, dim, padding_idx=PAD)
        self.rnn = nn.GRU(dim, dim, batch_first=True)
        self.out = nn.Linear(dim, VOCAB)

    def forward(self, ids, h=None):
        y, h = self.rnn(self.emb(ids), h)
        return self.out(y), h


def top_p_filter(logits, p=0.9):
    sorted_logits, sorted_idx = torch.sort(logits, descending=True, dim=-1)
    cum = sorted_logits.softmax(-1).cumsum(-1)
    remove = cum - sorted_logits.softmax(-1) > p
    sorted_logits = sorted_logits.masked_fill(remove, float("-inf"))
    return torch.full_like(logits, float("-inf")).scatter(-1, sorted_idx, sorted_logits)


@torch.no_grad()
def sample(model, prompts, steps, device, penalty=1.2, p=0.9):
    model.eval()
    prompt = torch.tensor(prompts, dtype=torch.long).to(device)
    mask = (prompt != PAD).long()
    temps = torch.linspace(1.0, 0.7, steps)
    logits, h = model(prompt)
    logits = logits[:, -1]
    out = prompt
    done = torch.zeros(prompt.size(0), dtype=torch.bool, device=device)
    for step in range(steps):
        seen = torch.zeros_like(logits).scatter_(1, out, 1.0).bool()
        logits = torch.where(seen, torch.where(logits > 0, logits / penalty, logits * penalty), logits)
        logits = top_p_filter(logits / temps[step], p)
        nxt = torch.multinomial(logits.softmax(-1), 1)
        nxt = nxt.masked_fill(done[:, None], PAD)
        out = torch.cat([out, nxt], dim=1)
        mask = torch.cat([mask, mask.new_ones(mask.size(0), 1)], dim=1)
        done |= nxt.squeeze(1) == EOS
        if done.all():
            break
        logits, h = model(nxt, h)
        logits = logits[:, -1]
    return out.cpu().tolist(), mask.sum(1).cpu().tolist()


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    torch.manual_seed(0)
    model = TinyLM().to(device)
    opt = torch.optim.Adam(model.parameters(), lr=3e-3)
    for step in range(150):
        start = torch.randint(2, VOCAB - 8, (32, 1), device=device)
        seq = start + torch.arange(8, device=device)
        logits, _ = model(seq[:, :-1])
        loss = F.cross_entropy(logits.reshape(-1, VOCAB), seq[:, 1:].reshape(-1))
        opt.zero_grad()
        loss.backward()
        opt.step()
    seqs, lengths = sample(model, [[3, 4, 5], [10, 11, 12]], steps=10, device=device)
    print("loss", round(loss.item(), 3), "lengths", lengths)
    for s in seqs:
        print(s)


if __name__ == "__main__":
    main()
