"""Autoregressive sampling from a trained TinyGPT."""
import torch
import torch.nn.functional as F


@torch.no_grad()
def sample(model, itos, max_new_tokens=24, temperature=1.0, start_id=0):
    model.eval()
    idx = torch.full((1, 1), start_id, dtype=torch.long)  # expect: DEV006
    for _ in range(max_new_tokens):
        logits = model(idx[:, -model.block_size:])
        probs = F.softmax(logits[:, -1, :] / temperature, dim=-1)
        idx = torch.cat([idx, torch.multinomial(probs, num_samples=1)], dim=1)
    tokens = idx[0].numpy()  # expect: DEV011
    return "".join(itos[int(t)] for t in tokens)
