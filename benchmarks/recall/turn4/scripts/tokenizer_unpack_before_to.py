"""Summarise a few documents with a seq2seq model; the encoding's fields are unpacked early."""
import torch
from transformers import AutoModelForSeq2SeqLM, AutoTokenizer

device = "cuda" if torch.cuda.is_available() else "cpu"
tokenizer = AutoTokenizer.from_pretrained("t5-small")
model = AutoModelForSeq2SeqLM.from_pretrained("t5-small").to(device).eval()

docs = ["summarize: The committee met on Tuesday and approved the budget for next year.",
        "summarize: Heavy rain closed two roads in the valley overnight; both reopened by noon."]
enc = tokenizer(docs, return_tensors="pt", padding=True, truncation=True, max_length=128)
input_ids, attention_mask = enc["input_ids"], enc["attention_mask"]  # expect: DEV020
enc = enc.to(device)

with torch.no_grad():
    summary_ids = model.generate(input_ids=enc.input_ids, attention_mask=attention_mask, max_new_tokens=24)
print(tokenizer.batch_decode(summary_ids, skip_special_tokens=True))
print("prompt lengths:", input_ids.ne(tokenizer.pad_token_id).sum(1).tolist())
