import torch
import torch.nn.functional as F

from .config import GenConfig


@torch.no_grad()
def generate(model, prompt: torch.Tensor, cfg: GenConfig) -> torch.Tensor:
    """Sample with temperature and a repetition penalty on tokens already produced."""
    model.eval()
    idx = prompt
    penalty = torch.ones(prompt.size(0), cfg.vocab_size)  # expect: DEV006
    penalty.scatter_(1, prompt, cfg.repetition_penalty)
    for _ in range(cfg.max_new_tokens):
        logits = model(idx[:, -cfg.block_size:])[:, -1, :]
        logits = torch.where(logits > 0, logits / penalty, logits * penalty)
        probs = F.softmax(logits / cfg.temperature, dim=-1)
        nxt = torch.multinomial(probs, num_samples=1)
        penalty.scatter_(1, nxt, cfg.repetition_penalty)
        idx = torch.cat([idx, nxt], dim=1)
    model.train()
    return idx
