"""Batched nucleus (top-p) sampling with left padding, an attention mask that grows
with the sequence, and a stop-sequence criterion in the style of HF StoppingCriteria.
"""
from dataclasses import dataclass

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


@dataclass
class GenConfig:
    max_new_tokens: int = 10
    top_p: float = 0.9
    top_k: int = 20
    temperature: float = 1.0
    pad_id: int = 0
    stop_sequence: tuple = (7, 8)


class MaskedLM(nn.Module):
    def __init__(self, vocab=50, d=32):
        super().__init__()
        self.emb = nn.Embedding(vocab, d)
        self.rnn = nn.GRU(d, d, batch_first=True)
        self.head = nn.Linear(d, vocab)

    def forward(self, input_ids, attention_mask):
        h = self.emb(input_ids) * attention_mask.unsqueeze(-1)
        out, _ = self.rnn(h)
        return self.head(out)


def top_k_top_p_filter(logits, top_k, top_p):
    kth = torch.topk(logits, top_k, dim=-1).values[..., -1, None]
    logits = logits.masked_fill(logits < kth, float("-inf"))
    sorted_logits, sorted_idx = torch.sort(logits, descending=True, dim=-1)
    cum = sorted_logits.softmax(-1).cumsum(-1)
    remove = cum - sorted_logits.softmax(-1) > top_p
    remove = remove.scatter(-1, sorted_idx, remove)
    return logits.masked_fill(remove, float("-inf"))


class StopOnSequence:
    """Stops a row once its last tokens equal the stop sequence."""

    def __init__(self, stop_sequence):
        self.stop = np.array(stop_sequence)

    def __call__(self, input_ids):
        tail = input_ids[:, -len(self.stop):].numpy()  # expect: DEV011
        return (tail == self.stop).all(axis=1)


@torch.no_grad()
def sample(model, input_ids, attention_mask, cfg, criterion):
    finished = torch.zeros(input_ids.size(0), dtype=torch.bool, device=input_ids.device)
    for _ in range(cfg.max_new_tokens):
        logits = model(input_ids, attention_mask)[:, -1] / cfg.temperature
        logits = top_k_top_p_filter(logits, cfg.top_k, cfg.top_p)
        next_tok = torch.multinomial(logits.softmax(-1), 1).squeeze(1)
        next_tok = torch.where(finished, torch.full_like(next_tok, cfg.pad_id), next_tok)
        input_ids = torch.cat([input_ids, next_tok[:, None]], dim=1)
        attention_mask = torch.cat([attention_mask, torch.ones(input_ids.size(0), 1)], dim=1)  # expect: DEV006
        done_np = criterion(input_ids)
        finished |= torch.from_numpy(done_np).to(finished.device)
        if finished.all():
            break
    return input_ids


def left_pad(seqs, pad_id, device):
    width = max(len(s) for s in seqs)
    ids = torch.full((len(seqs), width), pad_id, dtype=torch.long)
    mask = torch.zeros(len(seqs), width)
    for i, s in enumerate(seqs):
        ids[i, width - len(s):] = torch.tensor(s)
        mask[i, width - len(s):] = 1.0
    return ids.to(device), mask.to(device)


if __name__ == "__main__":
    torch.manual_seed(1)
    device = "cuda" if torch.cuda.is_available() else "cpu"
    cfg = GenConfig()
    model = MaskedLM().to(device).eval()
    prompts = [[3, 4, 5], [9, 10, 11, 12, 13], [2]]
    ids, mask = left_pad(prompts, cfg.pad_id, device)
    out = sample(model, ids, mask, cfg, StopOnSequence(cfg.stop_sequence))
    for row in out.cpu().tolist():
        print(row)
