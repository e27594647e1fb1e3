# ORPO (odds-ratio preference optimisation) on a toy GRU language model.
# No reference model: loss = NLL(chosen) + lambda * -log sigmoid(log odds(chosen) - log odds(rejected))
import math
import random
from dataclasses import dataclass

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader


@dataclass
class Config:
    vocab_size: int = 40
    pad_id: int = 0
    sep_id: int = 1
    hidden: int = 96
    batch_size: int = 16
    epochs: int = 3
    lr: float = 1e-3
    orpo_lambda: float = 0.2
    n_pairs: int = 320
    seed: int = 13


cfg = Config()
device = torch.device("cuda") if torch.cuda.is_available() else torch.device("cpu")


class GRULM(nn.Module):
    def __init__(self, vocab, hidden, pad_id):
        super().__init__()
        self.emb = nn.Embedding(vocab, hidden, padding_idx=pad_id)
        self.rnn = nn.GRU(hidden, hidden, batch_first=True)
        self.out = nn.Linear(hidden, vocab)

    def forward(self, ids):
        h, _ = self.rnn(self.emb(ids))
        return self.out(h)


def make_pairs(n, rng):
    pairs = []
    for _ in range(n):
        prompt = [rng.randrange(2, cfg.vocab_size) for _ in range(rng.randint(2, 6))]
        good = [t for t in prompt if t % 2 == 0] or [2]
        bad = [t for t in prompt if t % 2 == 1] or [3]
        pairs.append((prompt, good, bad))
    return pairs


def collate(pairs):
    def pack(seqs):
        width = max(len(s) for s in seqs)
        out = torch.full((len(seqs), width), cfg.pad_id, dtype=torch.long)
        for i, s in enumerate(seqs):
            out[i, : len(s)] = torch.tensor(s)
        return out

    chosen = [p + [cfg.sep_id] + g for p, g, _ in pairs]
    rejected = [p + [cfg.sep_id] + b for p, _, b in pairs]
    return {
        "chosen": pack(chosen),
        "rejected": pack(rejected),
        # response starts right after the separator
        "prompt_lens": torch.tensor([len(p) + 1 for p, _, _ in pairs]),
    }


def response_mask(input_ids, prompt_lens, pad_id):
    positions = torch.arange(input_ids.size(1))  # expect: DEV006
    after_prompt = positions.unsqueeze(0) >= prompt_lens.unsqueeze(1)
    return after_prompt & (input_ids != pad_id)


def avg_logps(model, ids, prompt_lens):
    logits = model(ids[:, :-1])
    targets = ids[:, 1:]
    mask = response_mask(ids, prompt_lens, cfg.pad_id)[:, 1:]
    token_logps = logits.log_softmax(-1).gather(-1, targets.unsqueeze(-1)).squeeze(-1)
    return (token_logps * mask).sum(-1) / mask.sum(-1).clamp(min=1)


def log_odds(avg_logp):
    # log(p / (1 - p)) with p = exp(avg_logp)
    return avg_logp - torch.log1p(-torch.exp(avg_logp).clamp(max=1 - 1e-6))


def orpo_step(model, batch):
    lp_chosen = avg_logps(model, batch["chosen"], batch["prompt_lens"])
    lp_rejected = avg_logps(model, batch["rejected"], batch["prompt_lens"])
    nll = -lp_chosen.mean()
    ratio = F.logsigmoid(log_odds(lp_chosen) - log_odds(lp_rejected))
    return nll - cfg.orpo_lambda * ratio.mean(), ratio.mean().item()


def main():
    rng = random.Random(cfg.seed)
    torch.manual_seed(cfg.seed)
    loader = DataLoader(make_pairs(cfg.n_pairs, rng), batch_size=cfg.batch_size,
                        shuffle=True, collate_fn=collate)
    model = GRULM(cfg.vocab_size, cfg.hidden, cfg.pad_id).to(device)
    opt = torch.optim.Adam(model.parameters(), lr=cfg.lr)

    for epoch in range(cfg.epochs):
        running, odds = 0.0, 0.0
        for batch in loader:
            batch = {k: v.to(device) for k, v in batch.items()}
            loss, ratio = orpo_step(model, batch)
            opt.zero_grad()
            loss.backward()
            opt.step()
            running += loss.item()
            odds += ratio
        n = len(loader)
        print(f"epoch {epoch + 1}/{cfg.epochs} loss={running / n:.4f} log_sigmoid_ratio={odds / n:.4f} "
              f"ppl~{math.exp(min(running / n, 20)):.2f}")


if __name__ == "__main__":
    main()
