"""Last-token pooling over a decoder's hidden states: the lengths read from the CPU encoding are only
used as CPU indices into the device tensor, which PyTorch allows; the encoding is moved in place."""
import torch
from transformers import AutoModel, AutoTokenizer

device = "cuda" if torch.cuda.is_available() else "cpu"
tokenizer = AutoTokenizer.from_pretrained("gpt2")
tokenizer.pad_token = tokenizer.eos_token
model = AutoModel.from_pretrained("gpt2").to(device).eval()

texts = ["a short one", "a somewhat longer sentence about the weather", "third"]
enc = tokenizer(texts, return_tensors="pt", padding=True)
lengths = enc["attention_mask"].sum(dim=1)
enc.to(device)
with torch.no_grad():
    hidden = model(**enc).last_hidden_state
rows = torch.arange(hidden.size(0))
pooled = hidden[rows, lengths - 1]
print(pooled.shape, lengths.tolist())
