"""Batched summarisation with a seq2seq checkpoint: prompts come from a DataLoader of pre-tokenised
rows and go to model.generate.

Thread: https://github.com/huggingface/transformers/issues/31975 (`attention_mask` must be on the same
device as the model?) and https://github.com/databrickslabs/dolly/pull/180 (move attention mask to the
model device).
"""
import torch
from torch.utils.data import DataLoader
from transformers import AutoModelForSeq2SeqLM, AutoTokenizer, DataCollatorWithPadding


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    tok = AutoTokenizer.from_pretrained("t5-small")
    model = AutoModelForSeq2SeqLM.from_pretrained("t5-small").to(device).eval()
    docs = ["summarize: the cat sat on the mat all day long", "summarize: stocks fell sharply on monday"]
    rows = [tok(d, truncation=True, max_length=64) for d in docs]
    loader = DataLoader(rows, batch_size=2, collate_fn=DataCollatorWithPadding(tok))
    summaries = []
    with torch.no_grad():
        for batch in loader:
            input_ids = batch["input_ids"].to(device)
            out = model.generate(input_ids=input_ids, attention_mask=batch["attention_mask"], max_new_tokens=20)  # expect: DEV002
            summaries += tok.batch_decode(out, skip_special_tokens=True)
    print(summaries)


if __name__ == "__main__":
    main()
