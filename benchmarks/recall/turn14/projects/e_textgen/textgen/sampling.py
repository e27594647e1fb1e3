import torch
import torch.nn.functional as F


@torch.no_grad()
def sample(model, idx, n_new, cfg, banned_ids=()):
    model.eval()
    temps = torch.linspace(cfg.temperature, cfg.final_temperature, n_new)
    banned = torch.tensor(list(banned_ids), dtype=torch.long)
    logprob = torch.zeros(idx.size(0), device=idx.device)
    for step in range(n_new):
        logits, _ = model(idx[:, -model.block_size:])
        logits = logits[:, -1, :] / temps[step]
        if len(banned):
            logits[:, banned] = float("-inf")
        if cfg.top_k:
            kth = torch.topk(logits, cfg.top_k).values[:, -1:]
            logits = logits.masked_fill(logits < kth, float("-inf"))
        logp = F.log_softmax(logits, dim=-1)
        nxt = torch.multinomial(logp.exp(), 1)
        logprob += logp.gather(1, nxt).squeeze(1)
        idx = torch.cat([idx, nxt], dim=1)
    return idx, logprob
