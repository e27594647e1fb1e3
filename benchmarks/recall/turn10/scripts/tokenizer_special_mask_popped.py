"""Sentence embeddings by mean pooling over real tokens only: the tokenizer also returns the
special-tokens mask, which is popped off the encoding (the model does not take it) and used to
leave [CLS]/[SEP] out of the average.

Thread: https://github.com/pinecone-io/examples/issues/214 (example fails on CUDA: Expected all
tensors to be on the same device; a tensor taken from the tokenizer output stayed on the CPU).
"""
import torch
import torch.nn.functional as F
from transformers import AutoModel, AutoTokenizer


@torch.no_grad()
def embed(sentences, tokenizer, model, device):
    enc = tokenizer(sentences, padding=True, truncation=True, max_length=64,
                    return_tensors="pt", return_special_tokens_mask=True)
    special = enc.pop("special_tokens_mask")  # expect: DEV020
    enc = enc.to(device)
    hidden = model(**enc).last_hidden_state
    keep = enc["attention_mask"] * (1 - special)
    summed = (hidden * keep[..., None]).sum(1)
    return F.normalize(summed / keep.sum(1, keepdim=True).clamp(min=1), dim=-1)


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    name = "sentence-transformers/all-MiniLM-L6-v2"
    tokenizer = AutoTokenizer.from_pretrained(name)
    model = AutoModel.from_pretrained(name).to(device).eval()
    queries = ["how do I move a tensor to the gpu", "torch not compiled with cuda"]
    docs = ["Use tensor.to(device) and keep the result.", "Install a CUDA build of PyTorch.",
            "Bake the bread for forty minutes."]
    q, d = embed(queries, tokenizer, model, device), embed(docs, tokenizer, model, device)
    scores = q @ d.T
    for i, text in enumerate(queries):
        print(text, "->", docs[scores[i].argmax().item()])


if __name__ == "__main__":
    main()
