import torch


def banned_token_ids(vocab, banned):
    return torch.tensor([vocab.index(ch) for ch in banned], dtype=torch.long)


def gumbel_top_k(logits, k, temperature):
    """Sample one id per row from the top-k logits with the Gumbel-max trick."""
    logits = logits / temperature
    kth = logits.topk(k, dim=-1).values[:, -1:]
    logits = logits.masked_fill(logits < kth, float("-inf"))
    gumbel = -torch.log(-torch.log(torch.rand(logits.shape).clamp_min(1e-9)))  # expect: DEV006
    return (logits + gumbel).argmax(dim=-1, keepdim=True)


@torch.no_grad()
def sample(model, idx, cfg, banned_ids):
    model.eval()
    for _ in range(cfg.max_new_tokens):
        window = idx[:, -model.context:]
        logits = model(window)[:, -1]
        logits[:, banned_ids] = float("-inf")
        nxt = gumbel_top_k(logits, cfg.top_k, cfg.temperature)
        idx = torch.cat([idx, nxt], dim=1)
    return idx
