"""Bi-encoder similarity fine-tuning on a toy byte tokenizer (correct look-alike).

Written from "Casting to device inside of the Tokenizer"
(huggingface/transformers#16359), "Move tokenized data to device"
(aryn-ai/sycamore#983) and "Replaces calls to .cuda with .to(torch_device) in
tests" (huggingface/transformers#25571): the BatchEncoding is moved as a whole
and re-bound before any tensor is taken out of it, and the pooling mask is cast
with the hidden states' dtype so it stays on their device.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F
from transformers import BatchEncoding


def byte_tokenize(texts, max_length=40):
    ids = [[b + 1 for b in t.lower().encode("utf-8")[:max_length]] for t in texts]
    width = max(map(len, ids))
    data = {
        "input_ids": [x + [0] * (width - len(x)) for x in ids],
        "attention_mask": [[1] * len(x) + [0] * (width - len(x)) for x in ids],
    }
    return BatchEncoding(data, tensor_type="pt")


class Encoder(nn.Module):
    def __init__(self, dim=48):
        super().__init__()
        self.embed = nn.Embedding(257, dim, padding_idx=0)
        self.conv = nn.Conv1d(dim, dim, kernel_size=3, padding=1)
        self.proj = nn.Linear(dim, dim)

    def forward(self, input_ids, attention_mask):
        h = self.embed(input_ids)
        h = F.gelu(self.conv(h.transpose(1, 2))).transpose(1, 2)
        mask = attention_mask.unsqueeze(-1).to(h.dtype)
        pooled = (h * mask).sum(dim=1) / mask.sum(dim=1).clamp(min=1.0)
        return F.normalize(self.proj(pooled), dim=-1)


PAIRS = [
    ("how do i reset my password", "password reset steps"),
    ("where is my order", "track a shipment"),
    ("cancel my subscription", "end membership"),
    ("change delivery address", "update shipping address"),
    ("refund for damaged item", "return a broken product"),
    ("talk to a human", "contact customer support"),
]


def main(epochs=40, temperature=0.1):
    torch.manual_seed(0)
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = Encoder().to(device)
    optimizer = torch.optim.Adam(model.parameters(), lr=2e-3)
    queries, docs = zip(*PAIRS)

    for epoch in range(epochs):
        q_enc = byte_tokenize(list(queries)).to(device)
        d_enc = byte_tokenize(list(docs)).to(device)
        q = model(**q_enc)
        d = model(d_enc["input_ids"], d_enc["attention_mask"])
        logits = q @ d.t() / temperature
        targets = torch.arange(len(PAIRS), device=device)
        loss = (F.cross_entropy(logits, targets) + F.cross_entropy(logits.t(), targets)) / 2
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()

    model.eval()
    with torch.no_grad():
        enc = byte_tokenize(["i forgot my password", "where is the parcel"]).to(device)
        sims = model(enc["input_ids"], enc["attention_mask"]) @ model(**byte_tokenize(list(docs)).to(device)).t()
    best = sims.argmax(dim=1).cpu().tolist()
    print(f"loss {loss.item():.3f}", [docs[i] for i in best])


if __name__ == "__main__":
    main()
