import math

import torch
import torch.nn.functional as F


@torch.no_grad()
def perplexity(model, loader):
    model.eval()
    device = next(model.parameters()).device
    nll, n_tokens = 0.0, 0
    for batch in loader:
        ids = batch["input_ids"]
        labels = batch["labels"].to(device)
        mask = batch["attention_mask"].to(device).bool()
        logits, _ = model(ids)  # expect: DEV002
        token_nll = F.cross_entropy(logits.flatten(0, 1), labels.flatten(), reduction="none")
        nll += token_nll[mask.flatten()].sum().item()
        n_tokens += mask.sum().item()
    return math.exp(nll / max(n_tokens, 1))
