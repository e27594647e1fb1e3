"""Imbalanced intent classification with a Hugging Face Trainer subclass whose compute_loss
weights the classes by inverse frequency.

Thread: https://github.com/huggingface/transformers/issues/10580 (Issue when customizing loss in
Trainer: a weighted CrossEntropyLoss whose weight tensor must live where the logits are).
"""
from collections import Counter

import torch
import torch.nn as nn
from datasets import Dataset
from transformers import (AutoModelForSequenceClassification, AutoTokenizer, Trainer,
                          TrainingArguments)

CHECKPOINT = "prajjwal1/bert-tiny"
INTENTS = ["check_balance", "transfer", "report_fraud"]


class WeightedTrainer(Trainer):
    def __init__(self, *args, class_weights=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.class_weights = torch.tensor(class_weights, dtype=torch.float32)

    def compute_loss(self, model, inputs, return_outputs=False, **kwargs):
        labels = inputs.pop("labels")
        outputs = model(**inputs)
        loss_fct = nn.CrossEntropyLoss(weight=self.class_weights)  # expect: DEV012
        loss = loss_fct(outputs.logits.view(-1, model.config.num_labels), labels.view(-1))
        return (loss, outputs) if return_outputs else loss


def main():
    texts = ([f"what is my balance on account {i}" for i in range(60)]
             + [f"send {i} dollars to my sister" for i in range(30)]
             + [f"someone used my card in city {i}" for i in range(6)])
    labels = [0] * 60 + [1] * 30 + [2] * 6
    counts = Counter(labels)
    weights = [len(labels) / (len(INTENTS) * counts[c]) for c in range(len(INTENTS))]

    tokenizer = AutoTokenizer.from_pretrained(CHECKPOINT)
    model = AutoModelForSequenceClassification.from_pretrained(CHECKPOINT,
                                                               num_labels=len(INTENTS))
    ds = Dataset.from_dict({"text": texts, "label": labels}).map(
        lambda b: tokenizer(b["text"], truncation=True, padding="max_length", max_length=24),
        batched=True)
    args = TrainingArguments("out_intents", per_device_train_batch_size=16, num_train_epochs=2,
                             learning_rate=5e-4, report_to=[], save_strategy="no")
    trainer = WeightedTrainer(model=model, args=args, train_dataset=ds, class_weights=weights)
    trainer.train()


if __name__ == "__main__":
    main()
