"""Imbalanced intent classification: a Trainer subclass keeps inverse-frequency class weights
computed from the training labels and uses them in compute_loss."""
from collections import Counter

import torch
import torch.nn.functional as F
from datasets import Dataset
from transformers import AutoModelForSequenceClassification, AutoTokenizer, Trainer, TrainingArguments


class WeightedTrainer(Trainer):
    def __init__(self, *args, label_counts=None, **kwargs):
        super().__init__(*args, **kwargs)
        total = sum(label_counts.values())
        freqs = [label_counts[k] / total for k in sorted(label_counts)]
        self.class_weights = torch.tensor([1.0 / f for f in freqs])  # expect: DEV006

    def compute_loss(self, model, inputs, return_outputs=False, num_items_in_batch=None):
        labels = inputs.pop("labels")
        outputs = model(**inputs)
        loss = F.cross_entropy(outputs.logits, labels, weight=self.class_weights)
        return (loss, outputs) if return_outputs else loss


def main():
    name = "prajjwal1/bert-tiny"
    tok = AutoTokenizer.from_pretrained(name)
    texts = [f"please {w} my account" for w in ["close", "open", "freeze", "close", "close"] * 40]
    labels = [{"close": 0, "open": 1, "freeze": 2}[t.split()[1]] for t in texts]
    ds = Dataset.from_dict({"text": texts, "labels": labels})
    ds = ds.map(lambda b: tok(b["text"], padding="max_length", max_length=16, truncation=True), batched=True)
    model = AutoModelForSequenceClassification.from_pretrained(name, num_labels=3)
    args = TrainingArguments("out_weighted", per_device_train_batch_size=32, num_train_epochs=2, report_to=[])
    trainer = WeightedTrainer(model=model, args=args, train_dataset=ds, label_counts=Counter(labels))
    trainer.train()


if __name__ == "__main__":
    main()
