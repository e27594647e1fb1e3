"""Mean pooling with the tokenizer output moved first, fields read after the move."""
import torch
import torch.nn.functional as F
from transformers import AutoModel, AutoTokenizer


@torch.no_grad()
def embed(texts, tok, model, device):
    enc = tok(texts, padding=True, truncation=True, return_tensors="pt").to(device)
    mask = enc["attention_mask"].unsqueeze(-1).float()
    hidden = model(input_ids=enc.input_ids, attention_mask=enc.attention_mask).last_hidden_state
    lengths = enc["attention_mask"].sum(1).cpu()
    return F.normalize((hidden * mask).sum(1) / mask.sum(1), dim=-1), lengths


if __name__ == "__main__":
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    name = "sentence-transformers/all-MiniLM-L6-v2"
    tok = AutoTokenizer.from_pretrained(name)
    model = AutoModel.from_pretrained(name).to(device).eval()
    emb, lengths = embed(["a cat sat", "a dog ran far away"], tok, model, device)
    print((emb @ emb.T).cpu().numpy(), lengths.tolist())
