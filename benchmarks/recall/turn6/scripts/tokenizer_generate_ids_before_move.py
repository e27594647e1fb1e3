"""Summarise a few support tickets with a seq2seq model; the prompt ids are kept for slicing
off the echoed prompt afterwards."""
import torch
from transformers import AutoModelForSeq2SeqLM, AutoTokenizer

TICKETS = [
    "My order arrived damaged and the box was open. I want a replacement.",
    "The app logs me out every time I switch to another screen.",
]


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    name = "google/flan-t5-small"
    tok = AutoTokenizer.from_pretrained(name)
    model = AutoModelForSeq2SeqLM.from_pretrained(name).to(device).eval()
    enc = tok(["summarize: " + t for t in TICKETS], return_tensors="pt", padding=True)
    input_ids = enc.input_ids  # expect: DEV020
    enc = enc.to(device)
    with torch.no_grad():
        out = model.generate(input_ids=input_ids, attention_mask=enc.attention_mask, max_new_tokens=24)
    for row in tok.batch_decode(out, skip_special_tokens=True):
        print(row)


if __name__ == "__main__":
    main()
