"""Sentence embeddings done right: the attention mask is read from the encoding after it was
moved, the result copied to the host for NumPy."""
import numpy as np
import torch
from transformers import AutoModel, AutoTokenizer


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    name = "sentence-transformers/all-MiniLM-L6-v2"
    tok = AutoTokenizer.from_pretrained(name)
    model = AutoModel.from_pretrained(name).to(device).eval()
    enc = tok(["red apple", "green pear"], padding=True, return_tensors="pt").to(device)
    mask = enc["attention_mask"]
    with torch.no_grad():
        hidden = model(**enc).last_hidden_state
    emb = (hidden * mask.unsqueeze(-1)).sum(1) / mask.sum(1, keepdim=True)
    np.save("pair.npy", emb.cpu().numpy())


if __name__ == "__main__":
    main()
