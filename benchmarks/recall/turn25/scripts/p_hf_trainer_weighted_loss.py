"""Fine-tune a sequence classifier on an imbalanced intent dataset with a
class-weighted loss and a logit prior (logit adjustment), using the HF Trainer.

    python p_hf_trainer_weighted_loss.py --model distilbert-base-uncased --epochs 2
"""
import argparse
import math
from collections import Counter

import torch
import torch.nn as nn
from datasets import Dataset
from transformers import (
    AutoModelForSequenceClassification,
    AutoTokenizer,
    DataCollatorWithPadding,
    Trainer,
    TrainingArguments,
)


def inverse_frequency(labels, num_labels):
    counts = Counter(labels)
    total = sum(counts.values())
    return [total / (num_labels * max(counts.get(i, 0), 1)) for i in range(num_labels)]


class LogitAdjustedTrainer(Trainer):
    """Trainer with a weighted cross entropy and a log-prior added to the logits."""

    def __init__(self, *args, class_weights=None, class_prior=None, tau=1.0, **kwargs):
        super().__init__(*args, **kwargs)
        self.loss_fct = nn.CrossEntropyLoss(weight=torch.tensor(class_weights, dtype=torch.float))  # expect: DEV012
        self.class_prior = class_prior
        self.tau = tau

    def compute_loss(self, model, inputs, return_outputs=False, num_items_in_batch=None):
        labels = inputs.pop("labels")
        outputs = model(**inputs)
        logits = outputs.logits
        log_prior = torch.log(torch.tensor(self.class_prior, dtype=logits.dtype))  # expect: DEV006
        adjusted = logits + self.tau * log_prior
        loss = self.loss_fct(adjusted.view(-1, adjusted.size(-1)), labels.view(-1))
        return (loss, outputs) if return_outputs else loss


def build_dataset(tokenizer, n=64):
    texts, labels = [], []
    for i in range(n):
        label = 0 if i % 8 else (1 if i % 16 else 2)
        texts.append(f"example utterance number {i} about topic {label}")
        labels.append(label)
    ds = Dataset.from_dict({"text": texts, "label": labels})
    return ds.map(lambda b: tokenizer(b["text"], truncation=True, max_length=32), batched=True), labels


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--model", default="distilbert-base-uncased")
    parser.add_argument("--epochs", type=float, default=1.0)
    parser.add_argument("--tau", type=float, default=1.0)
    parser.add_argument("--output-dir", default="out/intent")
    args = parser.parse_args()

    num_labels = 3
    tokenizer = AutoTokenizer.from_pretrained(args.model)
    train_ds, labels = build_dataset(tokenizer)
    eval_ds, _ = build_dataset(tokenizer, n=24)
    model = AutoModelForSequenceClassification.from_pretrained(args.model, num_labels=num_labels)

    weights = inverse_frequency(labels, num_labels)
    prior = [c / len(labels) for c in (labels.count(i) for i in range(num_labels))]

    training_args = TrainingArguments(
        output_dir=args.output_dir,
        num_train_epochs=args.epochs,
        per_device_train_batch_size=8,
        per_device_eval_batch_size=8,
        eval_strategy="epoch",
        logging_steps=5,
        report_to=[],
    )
    trainer = LogitAdjustedTrainer(
        model=model,
        args=training_args,
        train_dataset=train_ds,
        eval_dataset=eval_ds,
        data_collator=DataCollatorWithPadding(tokenizer),
        class_weights=weights,
        class_prior=prior,
        tau=args.tau,
    )
    trainer.train()
    metrics = trainer.evaluate()
    print({k: round(v, 4) if isinstance(v, float) and not math.isnan(v) else v for k, v in metrics.items()})


if __name__ == "__main__":
    main()
