"""Batched sampling with temperature and top-k that stops rows once they emit EOS."""
import torch
import torch.nn as nn

device = "cuda" if torch.cuda.is_available() else "cpu"
VOCAB, EOS, PAD = 64, 2, 0


class Decoder(nn.Module):
    def __init__(self, d=48):
        super().__init__()
        self.emb = nn.Embedding(VOCAB, d)
        self.layer = nn.TransformerEncoderLayer(d, 4, 96, batch_first=True)
        self.lm_head = nn.Linear(d, VOCAB)

    def forward(self, ids):
        n = ids.size(1)
        causal = torch.triu(torch.full((n, n), float("-inf"), device=ids.device), diagonal=1)
        return self.lm_head(self.layer(self.emb(ids), src_mask=causal))


@torch.no_grad()
def sample(model, prompt, max_new_tokens=20, temperature=0.8, top_k=10):
    ids = prompt.to(device)
    finished = torch.zeros(ids.size(0), dtype=torch.bool)  # expect: DEV006
    for _ in range(max_new_tokens):
        logits = model(ids)[:, -1] / temperature
        kth = logits.topk(top_k, dim=-1).values[:, -1:]
        logits = logits.masked_fill(logits < kth, float("-inf"))
        nxt = torch.multinomial(logits.softmax(-1), 1).squeeze(1)
        nxt = nxt.masked_fill(finished, PAD)
        finished |= nxt == EOS
        ids = torch.cat([ids, nxt[:, None]], dim=1)
        if finished.all():
            break
    return ids


if __name__ == "__main__":
    model = Decoder().to(device).eval()
    print(sample(model, torch.randint(3, VOCAB, (4, 5))).shape)
