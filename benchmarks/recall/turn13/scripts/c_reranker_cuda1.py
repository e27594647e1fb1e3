"""Cross-encoder passage reranker trained with a class-imbalanced BCE loss, evaluated by MRR.

Written from pytorch "Make device check error message more descriptive" (loss weight on the
CPU, inputs on cuda:0), DGL "train_ppi error: binary_cross_entropy_with_logits ... expected
device" and MelSpecVAE "stft input and window must be on the same device but got self on
cuda:1 and window on cuda:0": the reranker is pinned to the second GPU behind an availability
check that only asks whether any GPU exists, and BCEWithLogitsLoss gets a CPU pos_weight that
is never moved.
"""
import random

import torch
import torch.nn as nn
import torch.nn.functional as F

VOCAB, SEP = 500, 1


class CrossEncoder(nn.Module):
    def __init__(self, d=64):
        super().__init__()
        self.emb = nn.Embedding(VOCAB, d, padding_idx=0)
        self.seg = nn.Embedding(2, d)
        layer = nn.TransformerEncoderLayer(d, 4, 128, batch_first=True)
        self.enc = nn.TransformerEncoder(layer, 2)
        self.score = nn.Linear(d, 1)

    def forward(self, ids, segs):
        h = self.enc(self.emb(ids) + self.seg(segs), src_key_padding_mask=ids.eq(0))
        return self.score(h[:, 0]).squeeze(-1)


def make_pair(query, passage, width=24):
    ids = [2] + query + [SEP] + passage
    segs = [0] * (len(query) + 2) + [1] * len(passage)
    ids, segs = ids[:width], segs[:width]
    pad = width - len(ids)
    return ids + [0] * pad, segs + [0] * pad


def make_examples(n_queries=200, negatives=4, seed=0):
    rng = random.Random(seed)
    examples = []
    for _ in range(n_queries):
        query = [rng.randrange(3, VOCAB) for _ in range(4)]
        positive = query[:2] + [rng.randrange(3, VOCAB) for _ in range(10)]
        examples.append((query, positive, 1.0))
        for _ in range(negatives):
            examples.append((query, [rng.randrange(3, VOCAB) for _ in range(12)], 0.0))
    return examples


def batches(examples, size):
    for i in range(0, len(examples), size):
        chunk = examples[i:i + size]
        pairs = [make_pair(q, p) for q, p, _ in chunk]
        ids = torch.tensor([p[0] for p in pairs])
        segs = torch.tensor([p[1] for p in pairs])
        yield ids, segs, torch.tensor([lab for _, _, lab in chunk])


def main():
    device = torch.device("cuda:1" if torch.cuda.is_available() else "cpu")  # expect: DEV018
    torch.manual_seed(0)
    model = CrossEncoder().to(device)
    criterion = nn.BCEWithLogitsLoss(pos_weight=torch.tensor([4.0]))  # expect: DEV012
    opt = torch.optim.AdamW(model.parameters(), lr=5e-4)

    train = make_examples(seed=0)
    for epoch in range(3):
        random.Random(epoch).shuffle(train)
        model.train()
        for ids, segs, labels in batches(train, 64):
            ids, segs, labels = ids.to(device), segs.to(device), labels.to(device)
            loss = criterion(model(ids, segs), labels)
            opt.zero_grad()
            loss.backward()
            opt.step()
        print(f"epoch {epoch} loss {loss.item():.4f}")

    # MRR@5 over held-out queries: 1 positive + 4 negatives each, kept in order
    model.eval()
    rr = []
    with torch.no_grad():
        for ids, segs, labels in batches(make_examples(50, seed=1), 5):
            scores = model(ids.to(device), segs.to(device)).cpu()
            rank = (scores.argsort(descending=True) == labels.argmax()).nonzero().item() + 1
            rr.append(1.0 / rank)
    print(f"MRR@5 {sum(rr) / len(rr):.3f}")


if __name__ == "__main__":
    main()
