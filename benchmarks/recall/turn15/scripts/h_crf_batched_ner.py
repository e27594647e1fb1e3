"""Batched linear-chain CRF tagger with BIO transition constraints.

Emissions come from a small CNN+BiGRU encoder; the CRF forbids O->I-x and B-x->I-y.
Synthetic data: entity spans are marked by "trigger" token ids.
"""
import argparse
import random

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset

TAGS = ["O", "B-PER", "I-PER", "B-LOC", "I-LOC"]
TAG2ID = {t: i for i, t in enumerate(TAGS)}
PAD_ID = 0


def build_bio_constraints(tags):
    """(T, T) additive mask: 0 for allowed transitions, -1e4 for forbidden ones."""
    n = len(tags)
    mask = torch.zeros(n, n)
    for i, prev in enumerate(tags):
        for j, cur in enumerate(tags):
            if cur.startswith("I-"):
                ok = prev != "O" and prev[2:] == cur[2:]
                if not ok:
                    mask[i, j] = -1e4
    return mask


class CRF(nn.Module):
    def __init__(self, tags):
        super().__init__()
        n = len(tags)
        self.num_tags = n
        self.start_transitions = nn.Parameter(torch.empty(n).uniform_(-0.1, 0.1))
        self.end_transitions = nn.Parameter(torch.empty(n).uniform_(-0.1, 0.1))
        self.transitions = nn.Parameter(torch.empty(n, n).uniform_(-0.1, 0.1))
        self.constraints = build_bio_constraints(tags)  # expect: DEV010

    def _trans(self):
        return self.transitions + self.constraints

    def forward(self, emissions, tags, mask):
        """Mean negative log-likelihood. emissions (B, L, T), tags (B, L), mask (B, L) bool."""
        return (self._log_partition(emissions, mask) - self._gold_score(emissions, tags, mask)).mean()

    def _gold_score(self, emissions, tags, mask):
        B, L, _ = emissions.shape
        trans = self._trans()
        mask = mask.type(torch.FloatTensor)  # expect: DEV021
        batch_idx = torch.arange(B, device=emissions.device)
        score = self.start_transitions[tags[:, 0]] + emissions[batch_idx, 0, tags[:, 0]]
        for i in range(1, L):
            step = trans[tags[:, i - 1], tags[:, i]] + emissions[batch_idx, i, tags[:, i]]
            score = score + step * mask[:, i]
        last = mask.long().sum(1) - 1
        last_tags = tags.gather(1, last.unsqueeze(1).to(tags.device)).squeeze(1)
        return score + self.end_transitions[last_tags]

    def _log_partition(self, emissions, mask):
        trans = self._trans()
        alpha = self.start_transitions + emissions[:, 0]
        for i in range(1, emissions.size(1)):
            nxt = torch.logsumexp(alpha.unsqueeze(2) + trans + emissions[:, i].unsqueeze(1), dim=1)
            alpha = torch.where(mask[:, i].unsqueeze(1), nxt, alpha)
        return torch.logsumexp(alpha + self.end_transitions, dim=1)

    @torch.no_grad()
    def decode(self, emissions, mask):
        trans = self._trans()
        score = self.start_transitions + emissions[:, 0]
        history = []
        for i in range(1, emissions.size(1)):
            best, idx = (score.unsqueeze(2) + trans).max(dim=1)
            nxt = best + emissions[:, i]
            score = torch.where(mask[:, i].unsqueeze(1), nxt, score)
            history.append(idx)
        score = score + self.end_transitions
        lengths = mask.sum(1).tolist()
        paths = []
        for b in range(emissions.size(0)):
            best = score[b].argmax().item()
            path = [best]
            for idx in reversed(history[: lengths[b] - 1]):
                best = idx[b, best].item()
                path.append(best)
            paths.append(path[::-1])
        return paths


class Tagger(nn.Module):
    def __init__(self, vocab, emb=32, hid=48):
        super().__init__()
        self.emb = nn.Embedding(vocab, emb, padding_idx=PAD_ID)
        self.conv = nn.Conv1d(emb, emb, 3, padding=1)
        self.rnn = nn.GRU(emb, hid, batch_first=True, bidirectional=True)
        self.proj = nn.Linear(2 * hid, len(TAGS))
        self.crf = CRF(TAGS)

    def emissions(self, tokens):
        x = self.emb(tokens)
        x = torch.relu(self.conv(x.transpose(1, 2))).transpose(1, 2) + x
        out, _ = self.rnn(x)
        return self.proj(out)

    def forward(self, tokens, tags, mask):
        return self.crf(self.emissions(tokens), tags, mask)

    def predict(self, tokens, mask):
        return self.crf.decode(self.emissions(tokens), mask)


class SyntheticNER(Dataset):
    # token 1 opens a PER span, token 2 a LOC span; spans are 1-3 tokens of ids 10..49
    def __init__(self, n, seed):
        rng = random.Random(seed)
        self.items = []
        for _ in range(n):
            toks, tags = [], []
            while len(toks) < rng.randint(6, 14):
                r = rng.random()
                if r < 0.15:
                    kind = "PER" if rng.random() < 0.5 else "LOC"
                    toks.append(1 if kind == "PER" else 2)
                    tags.append("O")
                    for k in range(rng.randint(1, 3)):
                        toks.append(rng.randint(10, 49))
                        tags.append(("B-" if k == 0 else "I-") + kind)
                else:
                    toks.append(rng.randint(50, 99))
                    tags.append("O")
            self.items.append((toks, [TAG2ID[t] for t in tags]))

    def __len__(self):
        return len(self.items)

    def __getitem__(self, i):
        return self.items[i]


def collate(batch):
    L = max(len(t) for t, _ in batch)
    tokens = torch.full((len(batch), L), PAD_ID, dtype=torch.long)
    tags = torch.zeros((len(batch), L), dtype=torch.long)
    for i, (t, g) in enumerate(batch):
        tokens[i, : len(t)] = torch.tensor(t)
        tags[i, : len(g)] = torch.tensor(g)
    return tokens, tags, tokens.ne(PAD_ID)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=3)
    ap.add_argument("--no-cuda", action="store_true")
    args = ap.parse_args()
    torch.manual_seed(0)
    device = torch.device("cuda" if torch.cuda.is_available() and not args.no_cuda else "cpu")

    train_loader = DataLoader(SyntheticNER(400, 0), batch_size=32, shuffle=True, collate_fn=collate)
    dev_loader = DataLoader(SyntheticNER(80, 1), batch_size=40, collate_fn=collate)
    model = Tagger(vocab=100).to(device)
    opt = torch.optim.Adam(model.parameters(), lr=5e-3)

    for epoch in range(args.epochs):
        model.train()
        for tokens, tags, mask in train_loader:
            tokens, tags, mask = tokens.to(device), tags.to(device), mask.to(device)
            loss = model(tokens, tags, mask)
            opt.zero_grad()
            loss.backward()
            opt.step()
        model.eval()
        correct = total = 0
        for tokens, tags, mask in dev_loader:
            paths = model.predict(tokens.to(device), mask.to(device))
            for b, path in enumerate(paths):
                gold = tags[b, : len(path)].tolist()
                correct += sum(p == g for p, g in zip(path, gold))
                total += len(path)
        print(f"epoch {epoch}: nll {loss.item():.3f} dev token acc {correct / total:.3f}")


if __name__ == "__main__":
    main()
