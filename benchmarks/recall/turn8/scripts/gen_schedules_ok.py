"""Sampling with a temperature schedule indexed by the Python step number (a 0-dim CPU tensor,
which PyTorch lets meet CUDA tensors), positions made on the ids' device, and a diffusion table
moved before it is indexed by device timesteps.

Look-alike of gen_position_ids_arange.py and gen_diffusion_schedule_index.py.
Thread: https://github.com/modelscope/modelscope/issues/220
"""
import torch
import torch.nn as nn


class TinyLM(nn.Module):
    def __init__(self, vocab=50, dim=32):
        super().__init__()
        self.tok = nn.Embedding(vocab, dim)
        self.pos = nn.Embedding(64, dim)
        self.head = nn.Linear(dim, vocab)

    def forward(self, ids, pos):
        return self.head(self.tok(ids) + self.pos(pos))


@torch.no_grad()
def decode(lm, ids, steps):
    temps = torch.linspace(1.2, 0.4, steps)
    for step in range(steps):
        pos = torch.arange(ids.size(1), device=ids.device).unsqueeze(0)
        logits = lm(ids, pos)[:, -1] / temps[step]
        ids = torch.cat([ids, torch.multinomial(logits.softmax(-1), 1)], dim=1)
    return ids


@torch.no_grad()
def noise_levels(n, device):
    abar = torch.cumprod(1 - torch.linspace(1e-4, 0.02, 50), 0).to(device)
    t = torch.randint(0, 50, (n,), device=device)
    return abar[t].sqrt()


if __name__ == "__main__":
    dev = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    lm = TinyLM().to(dev).eval()
    print(decode(lm, torch.randint(0, 50, (2, 3), device=dev), 6).shape, noise_levels(4, dev).shape)
