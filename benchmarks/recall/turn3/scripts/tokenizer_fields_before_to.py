"""Embedding a corpus with a BERT encoder: the encoding is moved in place after its fields were read."""
import numpy as np
import torch
from transformers import AutoModel, AutoTokenizer

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
tokenizer = AutoTokenizer.from_pretrained("BAAI/bge-small-en-v1.5")
model = AutoModel.from_pretrained("BAAI/bge-small-en-v1.5").to(device).eval()


def embed(texts, batch_size=32):
    chunks = []
    for i in range(0, len(texts), batch_size):
        batch = tokenizer(texts[i:i + batch_size], padding=True, truncation=True, max_length=256, return_tensors="pt")
        mask = batch.attention_mask  # expect: DEV020
        batch.to(device)
        with torch.no_grad():
            hidden = model(**batch).last_hidden_state
        pooled = (hidden * mask.unsqueeze(-1)).sum(1) / mask.sum(1, keepdim=True)
        chunks.append(torch.nn.functional.normalize(pooled, dim=-1).cpu().numpy())
    return np.concatenate(chunks)


if __name__ == "__main__":
    docs = ["GPUs are fast", "CPUs are general", "TPUs are matrix engines"]
    emb = embed(docs)
    print(emb @ emb.T)
