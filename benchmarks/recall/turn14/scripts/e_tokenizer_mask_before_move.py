"""Mean-pooled sentence embeddings + nearest-neighbour search over a small FAQ.

A randomly initialised BERT stands in for the real checkpoint so the script is
self-contained; swap in from_pretrained() for the real thing.
"""
import torch
import torch.nn.functional as F
from tokenizers import Tokenizer, models, normalizers, pre_tokenizers
from transformers import BertConfig, BertModel, PreTrainedTokenizerFast

FAQ = [
    "How do I reset my password?",
    "Where can I download my invoice?",
    "How do I change the email on my account?",
    "Can I pay with a credit card?",
    "How do I delete my account?",
    "Why was my card declined?",
]
QUERIES = ["forgot password", "invoice pdf download", "card payment declined"]


def make_tokenizer(corpus):
    vocab = {"[PAD]": 0, "[UNK]": 1, "[CLS]": 2, "[SEP]": 3}
    pre = pre_tokenizers.Whitespace()
    for line in corpus:
        for word, _ in pre.pre_tokenize_str(line.lower()):
            vocab.setdefault(word, len(vocab))
    backend = Tokenizer(models.WordLevel(vocab, unk_token="[UNK]"))
    backend.normalizer = normalizers.Lowercase()
    backend.pre_tokenizer = pre
    return PreTrainedTokenizerFast(tokenizer_object=backend, pad_token="[PAD]", unk_token="[UNK]",
                                   cls_token="[CLS]", sep_token="[SEP]", model_max_length=64)


@torch.no_grad()
def embed(texts, tokenizer, model, device, batch_size=4):
    model.eval()
    chunks = []
    for i in range(0, len(texts), batch_size):
        enc = tokenizer(texts[i:i + batch_size], padding=True, truncation=True, return_tensors="pt")
        mask = enc["attention_mask"]  # expect: DEV020
        enc = enc.to(device)
        hidden = model(**enc).last_hidden_state
        summed = (hidden * mask.unsqueeze(-1)).sum(dim=1)
        pooled = summed / mask.sum(dim=1, keepdim=True).clamp(min=1)
        chunks.append(F.normalize(pooled, dim=-1).cpu())
    return torch.cat(chunks)


def main():
    device = "cuda" if torch.cuda.is_available() else "cpu"
    torch.manual_seed(0)
    tokenizer = make_tokenizer(FAQ + QUERIES)
    config = BertConfig(vocab_size=len(tokenizer), hidden_size=64, num_hidden_layers=2,
                        num_attention_heads=4, intermediate_size=128, max_position_embeddings=64)
    model = BertModel(config).to(device)

    doc_emb = embed(FAQ, tokenizer, model, device)
    query_emb = embed(QUERIES, tokenizer, model, device)
    scores = query_emb @ doc_emb.T
    for q, row in zip(QUERIES, scores):
        best = row.argmax().item()
        print(f"{q!r:28} -> {FAQ[best]!r} ({row[best]:.3f})")


if __name__ == "__main__":
    main()
