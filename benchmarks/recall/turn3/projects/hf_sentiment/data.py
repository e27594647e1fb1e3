"""Dataset loading and class weights for the review-sentiment fine-tune."""
from collections import Counter

import torch
from datasets import load_dataset


def load_reviews(tokenizer, max_length=128):
    ds = load_dataset("yelp_review_full")
    ds = ds.map(lambda b: tokenizer(b["text"], truncation=True, max_length=max_length), batched=True)
    return ds.rename_column("label", "labels")


def inverse_frequency_weights(labels, num_classes):
    counts = Counter(labels)
    total = sum(counts.values())
    return torch.tensor([total / (num_classes * counts.get(c, 1)) for c in range(num_classes)], dtype=torch.float32)
