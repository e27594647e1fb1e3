"""Mean-pooled sentence embeddings from a BERT encoder: the attention mask is kept for pooling,
the encoding is moved to the GPU for the forward pass."""
import torch
from transformers import AutoModel, AutoTokenizer


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    name = "sentence-transformers/all-MiniLM-L6-v2"
    tok = AutoTokenizer.from_pretrained(name)
    model = AutoModel.from_pretrained(name).to(device).eval()
    sentences = ["the cat sat on the mat", "a dog barked", "stock prices fell sharply"]
    enc = tok(sentences, padding=True, truncation=True, return_tensors="pt")
    mask = enc["attention_mask"]  # expect: DEV020
    enc = enc.to(device)
    with torch.no_grad():
        hidden = model(**enc).last_hidden_state
    emb = (hidden * mask.unsqueeze(-1)).sum(1) / mask.sum(1, keepdim=True)
    print(torch.nn.functional.normalize(emb, dim=-1) @ torch.nn.functional.normalize(emb, dim=-1).T)


if __name__ == "__main__":
    main()
