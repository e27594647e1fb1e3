"""Slot tagger for the voice assistant: BiLSTM emissions + CRF with BIO constraints,
plus an auxiliary class-weighted token loss (slots are rare, "O" dominates).
"""
import random
from dataclasses import dataclass

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.utils.rnn import pack_padded_sequence, pad_packed_sequence
from torch.utils.data import DataLoader

TAGS = ["O", "B-TIME", "I-TIME", "B-PLACE", "I-PLACE"]
ENTITY_TAGS = torch.tensor([1, 2, 3, 4])
PAD = 0


@dataclass
class TaggerConfig:
    vocab_size: int = 120
    emb_dim: int = 32
    hidden: int = 48
    aux_weight: float = 0.3
    o_weight: float = 0.2
    lr: float = 4e-3
    epochs: int = 3
    batch_size: int = 32


def bio_mask(tags):
    n = len(tags)
    m = torch.zeros(n, n)
    for i, prev in enumerate(tags):
        for j, cur in enumerate(tags):
            if cur.startswith("I-") and (prev == "O" or prev[2:] != cur[2:]):
                m[i, j] = -1e4
    start = torch.tensor([-1e4 if t.startswith("I-") else 0.0 for t in tags])
    return m, start


class ConstrainedCRF(nn.Module):
    def __init__(self, tags):
        super().__init__()
        n = len(tags)
        self.transitions = nn.Parameter(torch.zeros(n, n))
        self.start = nn.Parameter(torch.zeros(n))
        self.end = nn.Parameter(torch.zeros(n))
        m, s = bio_mask(tags)
        self.register_buffer("trans_mask", m)
        self.register_buffer("start_mask", s)

    def forward(self, em, tags, mask):
        B, L, T = em.shape
        trans = self.transitions + self.trans_mask
        start = self.start + self.start_mask
        maskf = mask.float()
        b = torch.arange(B, device=em.device)
        gold = start[tags[:, 0]] + em[b, 0, tags[:, 0]]
        for i in range(1, L):
            gold = gold + (trans[tags[:, i - 1], tags[:, i]] + em[b, i, tags[:, i]]) * maskf[:, i]
        last = tags.gather(1, mask.long().sum(1, keepdim=True) - 1).squeeze(1)
        gold = gold + self.end[last]

        alpha = start + em[:, 0]
        for i in range(1, L):
            nxt = torch.logsumexp(alpha.unsqueeze(2) + trans + em[:, i].unsqueeze(1), dim=1)
            alpha = torch.where(mask[:, i].unsqueeze(1), nxt, alpha)
        log_z = torch.logsumexp(alpha + self.end, dim=1)
        return (log_z - gold).mean()

    @torch.no_grad()
    def viterbi(self, em, mask):
        trans = self.transitions + self.trans_mask
        score = self.start + self.start_mask + em[:, 0]
        back = []
        for i in range(1, em.size(1)):
            best, idx = (score.unsqueeze(2) + trans).max(1)
            score = torch.where(mask[:, i].unsqueeze(1), best + em[:, i], score)
            back.append(idx)
        score = score + self.end
        out = []
        for bi, n in enumerate(mask.sum(1).tolist()):
            tag = int(score[bi].argmax())
            path = [tag]
            for idx in reversed(back[: n - 1]):
                tag = int(idx[bi, tag])
                path.append(tag)
            out.append(path[::-1])
        return out


class SlotTagger(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.emb = nn.Embedding(cfg.vocab_size, cfg.emb_dim, padding_idx=PAD)
        self.lstm = nn.LSTM(cfg.emb_dim, cfg.hidden, batch_first=True, bidirectional=True)
        self.proj = nn.Linear(2 * cfg.hidden, len(TAGS))
        self.crf = ConstrainedCRF(TAGS)

    def emissions(self, tokens, lengths):
        packed = pack_padded_sequence(self.emb(tokens), lengths, batch_first=True, enforce_sorted=False)
        out, _ = self.lstm(packed)
        out, _ = pad_packed_sequence(out, batch_first=True, total_length=tokens.size(1))
        return self.proj(out)


def synth(n, seed):
    rng = random.Random(seed)
    data = []
    for _ in range(n):
        toks, tags = [], []
        for _ in range(rng.randint(4, 10)):
            r = rng.random()
            if r < 0.12:  # "at <time>"
                toks += [3, rng.randint(10, 40)]
                tags += [0, 1]
                if rng.random() < 0.5:
                    toks.append(rng.randint(10, 40))
                    tags.append(2)
            elif r < 0.22:  # "in <place> <place>"
                toks += [4, rng.randint(41, 80), rng.randint(41, 80)]
                tags += [0, 3, 4]
            else:
                toks.append(rng.randint(81, 119))
                tags.append(0)
        data.append((toks, tags))
    return data


def collate(batch):
    lengths = torch.tensor([len(t) for t, _ in batch])
    L = int(lengths.max())
    tokens = torch.zeros(len(batch), L, dtype=torch.long)
    tags = torch.zeros(len(batch), L, dtype=torch.long)
    for i, (t, g) in enumerate(batch):
        tokens[i, :len(t)], tags[i, :len(g)] = torch.tensor(t), torch.tensor(g)
    return tokens, tags, lengths


class Trainer:
    def __init__(self, cfg, device):
        self.cfg, self.device = cfg, device
        self.model = SlotTagger(cfg).to(device)
        self.opt = torch.optim.Adam(self.model.parameters(), lr=cfg.lr)
        class_w = torch.ones(len(TAGS))
        class_w[0] = cfg.o_weight
        self.token_loss = nn.CrossEntropyLoss(weight=class_w.to(device), ignore_index=-100)

    def step(self, tokens, tags, lengths):
        tokens, tags = tokens.to(self.device), tags.to(self.device)
        mask = torch.arange(tokens.size(1), device=self.device)[None, :] < lengths.to(self.device)[:, None]
        em = self.model.emissions(tokens, lengths)
        crf_loss = self.model.crf(em, tags, mask)
        aux = self.token_loss(em.reshape(-1, len(TAGS)), tags.masked_fill(~mask, -100).reshape(-1))
        loss = crf_loss + self.cfg.aux_weight * aux
        self.opt.zero_grad()
        loss.backward()
        self.opt.step()
        return loss.item()

    @torch.no_grad()
    def evaluate(self, loader):
        self.model.eval()
        tp = fp = fn = 0
        mean_entity_logit = 0.0
        for tokens, tags, lengths in loader:
            tokens = tokens.to(self.device)
            mask = torch.arange(tokens.size(1), device=self.device)[None, :] < lengths.to(self.device)[:, None]
            em = self.model.emissions(tokens, lengths)
            mean_entity_logit += em[..., ENTITY_TAGS].mean().item()
            for b, path in enumerate(self.model.crf.viterbi(em, mask)):
                gold = tags[b, :len(path)].tolist()
                tp += sum(p == g != 0 for p, g in zip(path, gold))
                fp += sum(p != 0 and p != g for p, g in zip(path, gold))
                fn += sum(g != 0 and p != g for p, g in zip(path, gold))
        self.model.train()
        return 2 * tp / max(2 * tp + fp + fn, 1), mean_entity_logit / len(loader)


def main():
    torch.manual_seed(0)
    cfg = TaggerConfig()
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    train_loader = DataLoader(synth(500, 0), batch_size=cfg.batch_size, shuffle=True, collate_fn=collate)
    dev_loader = DataLoader(synth(100, 1), batch_size=50, collate_fn=collate)
    trainer = Trainer(cfg, device)
    for epoch in range(cfg.epochs):
        losses = [trainer.step(*batch) for batch in train_loader]
        f1, ent = trainer.evaluate(dev_loader)
        print(f"epoch {epoch}: loss {sum(losses) / len(losses):.3f} slot F1 {f1:.3f} (entity logit {ent:.2f})")


if __name__ == "__main__":
    main()
