"""GRU4Rec-style next-item prediction from click sessions (pandas event log:
session_id, item_id, ts). Sessions are variable length, so the GRU runs on
packed sequences; evaluation re-ranks a candidate pool of popular items.
"""
import numpy as np
import pandas as pd
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.utils.rnn import pack_padded_sequence, pad_packed_sequence
from torch.utils.data import DataLoader, Dataset

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")


def click_log(n_sessions=800, n_items=400, seed=3):
    rng = np.random.default_rng(seed)
    rows = []
    for s in range(n_sessions):
        length = rng.integers(2, 12)
        start = rng.integers(1, n_items)
        step = rng.integers(1, 4)
        items = (start + step * np.arange(length)) % n_items  # sessions drift through the catalogue
        for t, it in enumerate(items):
            rows.append((s, int(it) if rng.random() > 0.1 else int(rng.integers(1, n_items)), t))
    return pd.DataFrame(rows, columns=["session_id", "item_id", "ts"])


class SessionPrefixes(Dataset):
    """Every prefix of a session predicts the item that follows it."""

    def __init__(self, df, max_len=10):
        self.samples = []
        for _, g in df.sort_values("ts").groupby("session_id"):
            items = g["item_id"].tolist()
            for end in range(1, len(items)):
                self.samples.append((items[max(0, end - max_len):end], items[end]))

    def __len__(self):
        return len(self.samples)

    def __getitem__(self, i):
        return self.samples[i]


def collate(batch):
    prefixes, targets = zip(*batch)
    lengths = torch.tensor([len(p) for p in prefixes])
    padded = torch.zeros(len(batch), int(lengths.max()), dtype=torch.long)
    for i, p in enumerate(prefixes):
        padded[i, : len(p)] = torch.tensor(p)
    return padded, lengths, torch.tensor(targets)


class GRU4Rec(nn.Module):
    def __init__(self, n_items, dim=64):
        super().__init__()
        self.item_emb = nn.Embedding(n_items, dim, padding_idx=0)
        self.gru = nn.GRU(dim, dim, batch_first=True)
        self.out_bias = nn.Parameter(torch.zeros(n_items))

    def session_state(self, items, lengths):
        packed = pack_padded_sequence(self.item_emb(items), lengths, batch_first=True, enforce_sorted=False)
        _, h = self.gru(packed)
        return h[-1]

    def forward(self, items, lengths):
        h = self.session_state(items, lengths)
        return h @ self.item_emb.weight.T + self.out_bias  # tied output layer


@torch.no_grad()
def recall_at_k(model, loader, candidates, k=20):
    model.eval()
    cand_vecs = model.item_emb.weight[candidates]      # (C, D)
    cand_bias = model.out_bias[candidates]
    hits = total = 0
    for items, lengths, targets in loader:
        h = model.session_state(items.to(device), lengths)
        scores = h @ cand_vecs.T + cand_bias
        top = candidates[scores.topk(k, dim=1).indices.cpu()]   # (B, k) item ids, on the CPU
        hits += (top == targets[:, None]).any(1).sum().item()
        total += len(targets)
    return hits / total


def main():
    df = click_log()
    n_items = int(df["item_id"].max()) + 1
    cut = int(df["session_id"].max() * 0.85)
    train_df, test_df = df[df.session_id <= cut], df[df.session_id > cut]

    train_loader = DataLoader(SessionPrefixes(train_df), batch_size=128, shuffle=True, collate_fn=collate)
    test_loader = DataLoader(SessionPrefixes(test_df), batch_size=256, collate_fn=collate)

    popular = train_df["item_id"].value_counts().index[:150].to_numpy()
    candidates = torch.from_numpy(np.sort(popular)).long()

    model = GRU4Rec(n_items).to(device)
    opt = torch.optim.Adam(model.parameters(), lr=3e-3)
    for epoch in range(3):
        model.train()
        total = 0.0
        for items, lengths, targets in train_loader:
            items, targets = items.to(device), targets.to(device)
            loss = F.cross_entropy(model(items, lengths), targets)
            opt.zero_grad()
            loss.backward()
            opt.step()
            total += loss.item()
        print(f"epoch {epoch}: loss {total / len(train_loader):.3f} "
              f"recall@20 (popular pool) {recall_at_k(model, test_loader, candidates):.3f}")


if __name__ == "__main__":
    main()
