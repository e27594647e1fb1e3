"""Batch summarisation of support tickets with a small seq2seq model; the prompts are tokenised
once, the prompt lengths are reported, and generation runs on the GPU when there is one.

Thread: https://github.com/TransformerLensOrg/TransformerLens/issues/1508 (generate() device
mismatch: input_tokens bound to the input before the input is moved to the model's device).
"""
import torch
from transformers import AutoModelForSeq2SeqLM, AutoTokenizer

TICKETS = [
    "The export button does nothing after the last update and our weekly report is blocked.",
    "I was charged twice for the same invoice in March, please refund one of the payments.",
    "Two-factor codes arrive ten minutes late, so every login attempt times out for our team.",
]


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    tokenizer = AutoTokenizer.from_pretrained("t5-small")
    model = AutoModelForSeq2SeqLM.from_pretrained("t5-small").to(device).eval()

    enc = tokenizer(["summarize: " + t for t in TICKETS], return_tensors="pt", padding=True,
                    truncation=True, max_length=128)
    input_ids = enc["input_ids"]  # expect: DEV020
    enc = enc.to(device)
    print("prompt lengths:", enc["attention_mask"].sum(dim=1).tolist())

    with torch.no_grad():
        summaries = model.generate(input_ids=input_ids, attention_mask=enc["attention_mask"],
                                   num_beams=2, max_new_tokens=24)
    for ticket, ids in zip(TICKETS, summaries):
        print(ticket[:40], "->", tokenizer.decode(ids, skip_special_tokens=True))


if __name__ == "__main__":
    main()
