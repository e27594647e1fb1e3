"""Correct look-alike: mean pooling that leaves out special tokens, where every tensor taken out of
the encoding is taken after BatchEncoding.to(device) (which moves the encoding's tensors in
place), and the offsets the pooling does not need on the device are popped and kept on the CPU on
purpose, for the host-side span lookup.

Thread: https://github.com/huggingface/transformers/issues/23988 (tokenizer output and model on
different devices in a pipeline).
"""
import torch
import torch.nn.functional as F
from transformers import AutoModel, AutoTokenizer


@torch.no_grad()
def embed_with_spans(sentences, tokenizer, model, device):
    enc = tokenizer(sentences, padding=True, truncation=True, max_length=64, return_tensors="pt",
                    return_special_tokens_mask=True, return_offsets_mapping=True)
    offsets = enc.pop("offset_mapping")
    enc = enc.to(device)
    special = enc.pop("special_tokens_mask")
    hidden = model(**enc).last_hidden_state
    keep = enc["attention_mask"] * (1 - special)
    emb = F.normalize((hidden * keep[..., None]).sum(1) / keep.sum(1, keepdim=True).clamp(min=1), dim=-1)
    first_word_end = [int(o[1, 1]) for o in offsets]
    return emb, first_word_end


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    name = "sentence-transformers/all-MiniLM-L6-v2"
    tokenizer = AutoTokenizer.from_pretrained(name)
    model = AutoModel.from_pretrained(name).to(device).eval()
    sentences = ["how do I move a tensor to the gpu", "Install a CUDA build of PyTorch."]
    emb, ends = embed_with_spans(sentences, tokenizer, model, device)
    print((emb @ emb.T).cpu(), [s[:e] for s, e in zip(sentences, ends)])


if __name__ == "__main__":
    main()
