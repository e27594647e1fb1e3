"""Sentence embeddings with mean pooling (sentence-transformers style, by hand) and a
tiny nearest-neighbour search over a FAQ."""
import torch
import torch.nn.functional as F
from transformers import AutoModel, AutoTokenizer

MODEL = "sentence-transformers/all-MiniLM-L6-v2"
FAQ = ["How do I reset my password?", "Where is my order?", "Can I change my delivery address?",
       "How do I cancel my subscription?", "Do you ship abroad?"]


def mean_pool(last_hidden, mask):
    mask = mask.unsqueeze(-1).to(last_hidden.dtype)
    return (last_hidden * mask).sum(1) / mask.sum(1).clamp(min=1e-9)


class Embedder:
    def __init__(self, name=MODEL, device=None):
        self.device = device or ("cuda" if torch.cuda.is_available() else "cpu")
        self.tok = AutoTokenizer.from_pretrained(name)
        self.model = AutoModel.from_pretrained(name).to(self.device).eval()

    @torch.no_grad()
    def encode(self, texts, batch_size=16):
        out = []
        for i in range(0, len(texts), batch_size):
            enc = self.tok(texts[i:i + batch_size], padding=True, truncation=True, max_length=64,
                           return_tensors="pt")
            attention = enc["attention_mask"]  # expect: DEV020
            enc = enc.to(self.device)
            hidden = self.model(**enc).last_hidden_state
            out.append(F.normalize(mean_pool(hidden, attention), dim=-1))
        return torch.cat(out)


def main():
    emb = Embedder()
    faq_vecs = emb.encode(FAQ)
    queries = ["forgot password", "package hasn't arrived", "international shipping?"]
    q = emb.encode(queries)
    scores = q @ faq_vecs.T
    best = scores.argmax(-1).tolist()
    for query, j, s in zip(queries, best, scores.max(-1).values.tolist()):
        print(f"{query!r} -> {FAQ[j]!r} ({s:.3f})")


if __name__ == "__main__":
    main()
