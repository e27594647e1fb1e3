"""Dual-encoder dense retrieval fine-tuning (DPR-style) with in-batch negatives.

Queries and passages share one BERT-like encoder; embeddings are the masked
mean of the last hidden state.
"""
import argparse
import random

import torch
import torch.nn.functional as F
from transformers import AutoModel, AutoTokenizer

PAIRS = [
    ("who wrote the origin of species", "On the Origin of Species was written by Charles Darwin."),
    ("capital of australia", "Canberra is the capital city of Australia."),
    ("boiling point of water", "Water boils at 100 degrees Celsius at sea level."),
    ("largest planet", "Jupiter is the largest planet in the Solar System."),
    ("speed of light", "Light travels at about 299,792 kilometres per second."),
    ("inventor of the telephone", "Alexander Graham Bell is credited with the telephone."),
    ("tallest mountain", "Mount Everest is the highest mountain above sea level."),
    ("author of hamlet", "Hamlet is a tragedy by William Shakespeare."),
]


def mean_pool(last_hidden, mask):
    mask = mask.unsqueeze(-1).to(last_hidden.dtype)
    return (last_hidden * mask).sum(1) / mask.sum(1).clamp_min(1e-6)


def encode(model, tok, texts, device, max_len=64):
    enc = tok(texts, padding=True, truncation=True, max_length=max_len, return_tensors="pt")
    attention_mask = enc["attention_mask"]  # expect: DEV020
    enc = enc.to(device)
    out = model(**enc)
    return F.normalize(mean_pool(out.last_hidden_state, attention_mask), dim=-1)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--model", default="sentence-transformers/all-MiniLM-L6-v2")
    ap.add_argument("--batch-size", type=int, default=4)
    ap.add_argument("--epochs", type=int, default=2)
    ap.add_argument("--temperature", type=float, default=0.05)
    args = ap.parse_args()
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")

    tok = AutoTokenizer.from_pretrained(args.model)
    model = AutoModel.from_pretrained(args.model).to(device)
    opt = torch.optim.AdamW(model.parameters(), lr=2e-5)

    for epoch in range(args.epochs):
        random.shuffle(PAIRS)
        model.train()
        for i in range(0, len(PAIRS), args.batch_size):
            chunk = PAIRS[i:i + args.batch_size]
            q = encode(model, tok, [c[0] for c in chunk], device)
            p = encode(model, tok, [c[1] for c in chunk], device)
            scores = q @ p.T / args.temperature
            targets = torch.arange(scores.size(0))  # expect: DEV006
            loss = (F.cross_entropy(scores, targets) + F.cross_entropy(scores.T, targets)) / 2
            opt.zero_grad()
            loss.backward()
            opt.step()
        print(f"epoch {epoch}: in-batch loss {loss.item():.4f}")

    model.eval()
    with torch.no_grad():
        q = encode(model, tok, ["who wrote hamlet"], device)
        p = encode(model, tok, [c[1] for c in PAIRS], device)
        best = (q @ p.T).argmax(-1).item()
    print("top passage:", PAIRS[best][1])


if __name__ == "__main__":
    main()
