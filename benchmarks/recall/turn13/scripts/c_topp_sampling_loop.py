"""Custom top-k / top-p sampling loop for a small character-level transformer.

Written from "Facing issue in generate.py" (TextAugmentation-GPT2: "All input tensors must be
on the same device. Received cpu and cuda:0" in a top-k/top-n loop) and the TransformerLens
report "generate() device mismatch on CUDA machines: input_tokens left on original device":
the per-sequence "finished" flags are made on the CPU inside the sampling loop, and the
prompt is scored before it is moved.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

VOCAB, EOS = 64, 1


class CharLM(nn.Module):
    def __init__(self, vocab=VOCAB, d=96, n_layers=2, n_heads=4, max_len=128):
        super().__init__()
        self.emb = nn.Embedding(vocab, d)
        self.pos = nn.Parameter(torch.zeros(1, max_len, d))
        layer = nn.TransformerEncoderLayer(d, n_heads, 4 * d, batch_first=True, norm_first=True)
        self.encoder = nn.TransformerEncoder(layer, n_layers)
        self.out = nn.Linear(d, vocab)

    def forward(self, ids):
        t = ids.size(1)
        mask = nn.Transformer.generate_square_subsequent_mask(t, device=ids.device)
        h = self.emb(ids) + self.pos[:, :t]
        return self.out(self.encoder(h, mask=mask, is_causal=True))


def top_k_top_p(logits, top_k=0, top_p=1.0):
    if top_k > 0:
        kth = torch.topk(logits, top_k, dim=-1).values[:, -1:]
        logits = logits.masked_fill(logits < kth, float("-inf"))
    if top_p < 1.0:
        sorted_logits, sorted_idx = torch.sort(logits, descending=True, dim=-1)
        cum = sorted_logits.softmax(-1).cumsum(-1)
        drop = cum > top_p
        drop[:, 1:] = drop[:, :-1].clone()
        drop[:, 0] = False
        logits = logits.masked_fill(drop.scatter(1, sorted_idx, drop), float("-inf"))
    return logits


@torch.no_grad()
def sample(model, ids, max_new_tokens=32, temperature=0.8, top_k=20, top_p=0.9):
    finished = torch.zeros(ids.size(0), dtype=torch.bool)  # expect: DEV006
    for _ in range(max_new_tokens):
        logits = model(ids)[:, -1, :] / temperature
        probs = F.softmax(top_k_top_p(logits, top_k, top_p), dim=-1)
        nxt = torch.multinomial(probs, num_samples=1)
        nxt = torch.where(finished[:, None], torch.full_like(nxt, EOS), nxt)
        ids = torch.cat([ids, nxt], dim=1)
        finished |= nxt.squeeze(1) == EOS
        if finished.all():
            break
    return ids


def main():
    device = "cuda" if torch.cuda.is_available() else "cpu"
    torch.manual_seed(0)
    model = CharLM().to(device)
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)

    corpus = torch.randint(2, VOCAB, (256, 48))
    for step in range(50):
        batch = corpus[torch.randint(0, len(corpus), (16,))].to(device)
        logits = model(batch[:, :-1])
        loss = F.cross_entropy(logits.reshape(-1, VOCAB), batch[:, 1:].reshape(-1))
        opt.zero_grad()
        loss.backward()
        opt.step()

    model.eval()
    prompt = torch.tensor([[2, 17, 33, 5], [2, 8, 8, 41]])
    with torch.no_grad():
        prompt_logits = model(prompt)  # expect: DEV002
        nll = F.cross_entropy(prompt_logits[:, :-1].reshape(-1, VOCAB), prompt[:, 1:].reshape(-1).to(device))
    print(f"prompt nll {nll.item():.3f}")

    out = sample(model, prompt.to(device), max_new_tokens=24)
    for row in out.tolist():
        print(" ".join(map(str, row)))


if __name__ == "__main__":
    main()
