"""Intent classifier on an imbalanced set: HF Trainer with a class-weighted loss
and logit adjustment by the label prior at evaluation time."""
import argparse
from dataclasses import dataclass, field

import numpy as np
import torch
import torch.nn as nn
from datasets import Dataset
from transformers import (AutoModelForSequenceClassification, AutoTokenizer,
                          DataCollatorWithPadding, Trainer, TrainingArguments)


@dataclass
class Config:
    model_name: str = "distilbert-base-uncased"
    class_counts: list = field(default_factory=lambda: [900, 80, 20])
    output_dir: str = "out/intent"
    epochs: int = 2
    lr: float = 3e-5


class WeightedTrainer(Trainer):
    def __init__(self, *args, class_counts=None, **kwargs):
        super().__init__(*args, **kwargs)
        counts = np.asarray(class_counts, dtype=np.float32)
        weights = counts.sum() / (len(counts) * counts)
        self.loss_fct = nn.CrossEntropyLoss(weight=torch.from_numpy(weights))  # expect: DEV012
        self.log_prior = torch.log(torch.from_numpy(counts / counts.sum()))  # expect: DEV006

    def compute_loss(self, model, inputs, return_outputs=False, num_items_in_batch=None):
        labels = inputs.pop("labels")
        outputs = model(**inputs)
        loss = self.loss_fct(outputs.logits, labels)
        return (loss, outputs) if return_outputs else loss

    def prediction_step(self, model, inputs, prediction_loss_only, ignore_keys=None):
        inputs = self._prepare_inputs(inputs)
        labels = inputs.pop("labels")
        with torch.no_grad():
            outputs = model(**inputs)
            loss = self.loss_fct(outputs.logits, labels).detach()
        if prediction_loss_only:
            return loss, None, None
        adjusted = outputs.logits - self.log_prior
        return loss, adjusted.detach(), labels


def compute_metrics(eval_pred):
    logits, labels = eval_pred
    preds = logits.argmax(-1)
    per_class = [float((preds[labels == c] == c).mean()) for c in np.unique(labels)]
    return {"accuracy": float((preds == labels).mean()), "balanced_acc": float(np.mean(per_class))}


def toy_split(n, counts, seed):
    rng = np.random.default_rng(seed)
    probs = np.asarray(counts) / np.sum(counts)
    words = [["book", "flight", "ticket"], ["cancel", "refund", "order"], ["complain", "agent", "angry"]]
    rows = {"text": [], "label": []}
    for _ in range(n):
        y = int(rng.choice(len(counts), p=probs))
        rows["text"].append(" ".join(rng.choice(words[y], size=4)))
        rows["label"].append(y)
    return Dataset.from_dict(rows)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=Config.epochs)
    parser.add_argument("--output-dir", default=Config.output_dir)
    args = parser.parse_args()
    cfg = Config(epochs=args.epochs, output_dir=args.output_dir)

    tok = AutoTokenizer.from_pretrained(cfg.model_name)
    model = AutoModelForSequenceClassification.from_pretrained(cfg.model_name, num_labels=len(cfg.class_counts))
    train = toy_split(512, cfg.class_counts, 0).map(lambda b: tok(b["text"], truncation=True), batched=True)
    val = toy_split(128, cfg.class_counts, 1).map(lambda b: tok(b["text"], truncation=True), batched=True)

    targs = TrainingArguments(output_dir=cfg.output_dir, num_train_epochs=cfg.epochs, learning_rate=cfg.lr,
                              per_device_train_batch_size=16, per_device_eval_batch_size=32,
                              eval_strategy="epoch", report_to=[])
    trainer = WeightedTrainer(model=model, args=targs, train_dataset=train, eval_dataset=val,
                              data_collator=DataCollatorWithPadding(tok), compute_metrics=compute_metrics,
                              class_counts=cfg.class_counts)
    trainer.train()
    print(trainer.evaluate())


if __name__ == "__main__":
    main()
