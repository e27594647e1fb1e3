"""Speculative decoding with a separately built small draft model (greedy verification)."""
import copy

import torch
import torch.nn as nn


class LM(nn.Module):
    def __init__(self, vocab=128, d=64, n_layer=4, max_len=256):
        super().__init__()
        self.emb = nn.Embedding(vocab, d)
        self.pos = nn.Embedding(max_len, d)
        self.layers = nn.ModuleList(nn.TransformerEncoderLayer(d, 4, 4 * d, 0.0, batch_first=True)
                                    for _ in range(n_layer))
        self.out = nn.Linear(d, vocab)

    def forward(self, ids):
        T = ids.size(1)
        mask = nn.Transformer.generate_square_subsequent_mask(T, device=ids.device)
        h = self.emb(ids) + self.pos(torch.arange(T, device=ids.device))
        for layer in self.layers:
            h = layer(h, src_mask=mask, is_causal=True)
        return self.out(h)


@torch.no_grad()
def speculative_generate(target, draft, prompt, new_tokens=24, k=4):
    ids = prompt
    while ids.size(1) < prompt.size(1) + new_tokens:
        prop = ids
        for _ in range(k):
            prop = torch.cat([prop, draft(prop)[:, -1:].argmax(-1)], dim=1)
        verify = target(prop).argmax(-1)
        n = ids.size(1)
        agree = (verify[:, n - 1:n - 1 + k] == prop[:, n:]).int().cumprod(-1).sum().item()
        ids = torch.cat([prop[:, :n + agree], verify[:, n - 1 + agree:n + agree]], dim=1)
    return ids


if __name__ == "__main__":
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    torch.manual_seed(0)
    target = LM().to(device).eval()
    draft = copy.deepcopy(target)
    draft.layers = draft.layers[:1]
    draft.eval()
    prompt = torch.tensor([[1, 17, 42, 5]])
    prompt = prompt.to(device)
    print(speculative_generate(target, draft, prompt)[0].tolist())
