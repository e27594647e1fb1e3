"""Text classifier with a padding collate_fn bound through functools.partial; the loop moves every
field of the dict batch except the label it pulls out for the loss.

Thread: https://github.com/bigscience-workshop/lm-evaluation-harness/pull/76 (move tokens to device:
CUDA/CPU mismatch otherwise); https://github.com/coqui-ai/TTS/issues/1979.
"""
from functools import partial

import torch
import torch.nn as nn
from torch.utils.data import DataLoader


def pad_collate(items, pad_id):
    L = max(len(t) for t, _ in items)
    ids = torch.full((len(items), L), pad_id, dtype=torch.long)
    for i, (t, _) in enumerate(items):
        ids[i, :len(t)] = torch.tensor(t)
    return {"ids": ids, "mask": ids != pad_id, "label": torch.tensor([lab for _, lab in items])}


class BagClassifier(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(200, 32, padding_idx=0)
        self.fc = nn.Linear(32, 2)

    def forward(self, ids, mask):
        e = self.emb(ids) * mask.unsqueeze(-1)
        return self.fc(e.sum(1) / mask.sum(1, keepdim=True).clamp(min=1))


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    data = [([1 + (i * j) % 199 for j in range(3 + i % 7)], i % 2) for i in range(200)]
    dl = DataLoader(data, batch_size=20, collate_fn=partial(pad_collate, pad_id=0))
    model = BagClassifier().to(device)
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    for batch in dl:
        inputs = {k: v.to(device) for k, v in batch.items() if k != "label"}
        logits = model(**inputs)
        loss = nn.functional.cross_entropy(logits, batch["label"])  # expect: DEV004
        opt.zero_grad()
        loss.backward()
        opt.step()


if __name__ == "__main__":
    main()
