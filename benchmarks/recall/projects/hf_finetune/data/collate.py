"""Pad variable-length examples into a dict batch, the way HF data collators do."""
import torch


class PaddingCollator:
    def __init__(self, pad_id=0, max_length=16):
        self.pad_id = pad_id
        self.max_length = max_length

    def __call__(self, examples):
        seqs = [ex["input_ids"][: self.max_length] for ex in examples]
        width = max(len(s) for s in seqs)
        input_ids = torch.full((len(seqs), width), self.pad_id, dtype=torch.long)
        attention_mask = torch.zeros(len(seqs), width, dtype=torch.long)
        for row, seq in enumerate(seqs):
            input_ids[row, : len(seq)] = torch.tensor(seq)
            attention_mask[row, : len(seq)] = 1
        labels = torch.tensor([ex["label"] for ex in examples])
        return {"input_ids": input_ids, "attention_mask": attention_mask, "labels": labels}
