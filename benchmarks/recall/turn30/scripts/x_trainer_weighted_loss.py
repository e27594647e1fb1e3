"""Fine-tune an intent classifier on an imbalanced dataset with a weighted loss (HF Trainer)."""
import argparse
from collections import Counter

import numpy as np
import torch
from torch import nn
from transformers import (AutoModelForSequenceClassification, AutoTokenizer,
                          Trainer, TrainingArguments)


class PadCollator:
    """Pads tokenized examples by hand; the Trainer moves the batch to the device."""

    def __init__(self, pad_id):
        self.pad_id = pad_id

    def __call__(self, features):
        longest = max(len(f["input_ids"]) for f in features)
        ids, mask = [], []
        for f in features:
            n = len(f["input_ids"])
            ids.append(f["input_ids"] + [self.pad_id] * (longest - n))
            mask.append([1] * n + [0] * (longest - n))
        return {
            "input_ids": torch.tensor(ids, dtype=torch.long),
            "attention_mask": torch.tensor(mask, dtype=torch.long),
            "labels": torch.tensor([f["label"] for f in features], dtype=torch.long),
        }


class WeightedTrainer(Trainer):
    def __init__(self, *args, class_weights=None, label_prior=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.class_weights = class_weights
        self.label_prior = label_prior

    def compute_loss(self, model, inputs, return_outputs=False, num_items_in_batch=None):
        labels = inputs.pop("labels")
        outputs = model(**inputs)
        logits = outputs.logits
        loss_fct = nn.CrossEntropyLoss(weight=torch.tensor(self.class_weights, dtype=torch.float))  # expect: DEV012
        loss = loss_fct(logits.view(-1, model.config.num_labels), labels.view(-1))
        return (loss, outputs) if return_outputs else loss

    def prediction_step(self, model, inputs, prediction_loss_only, ignore_keys=None):
        loss, logits, labels = super().prediction_step(model, inputs, prediction_loss_only, ignore_keys)
        if logits is not None and self.label_prior is not None:
            # logit adjustment: remove the training prior at evaluation time
            prior = torch.tensor(self.label_prior, dtype=logits.dtype)  # expect: DEV006
            logits = logits - prior.log()
        return loss, logits, labels


def load_examples(path):
    texts, labels = [], []
    with open(path) as fh:
        for line in fh:
            label, text = line.rstrip("\n").split("\t", 1)
            texts.append(text)
            labels.append(int(label))
    return texts, labels


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--model", default="distilbert-base-uncased")
    p.add_argument("--train", default="data/intents_train.tsv")
    p.add_argument("--dev", default="data/intents_dev.tsv")
    p.add_argument("--num-labels", type=int, default=7)
    p.add_argument("--out", default="runs/intent-weighted")
    args = p.parse_args()

    tok = AutoTokenizer.from_pretrained(args.model)
    model = AutoModelForSequenceClassification.from_pretrained(args.model, num_labels=args.num_labels)

    tr_texts, tr_labels = load_examples(args.train)
    dv_texts, dv_labels = load_examples(args.dev)
    counts = Counter(tr_labels)
    freq = np.array([counts.get(c, 1) for c in range(args.num_labels)], dtype=np.float64)
    class_weights = (freq.sum() / (args.num_labels * freq)).tolist()
    label_prior = (freq / freq.sum()).tolist()

    def encode(texts, labels):
        enc = tok(texts, truncation=True, max_length=64)
        return [{"input_ids": i, "label": l} for i, l in zip(enc["input_ids"], labels)]

    train_ds = encode(tr_texts, tr_labels)
    dev_ds = encode(dv_texts, dv_labels)

    def compute_metrics(eval_pred):
        logits, labels = eval_pred
        return {"accuracy": float((logits.argmax(-1) == labels).mean())}

    targs = TrainingArguments(output_dir=args.out, per_device_train_batch_size=32,
                              per_device_eval_batch_size=64, num_train_epochs=3,
                              learning_rate=3e-5, eval_strategy="epoch", report_to=[],
                              remove_unused_columns=False)
    trainer = WeightedTrainer(model=model, args=targs, train_dataset=train_ds, eval_dataset=dev_ds,
                              data_collator=PadCollator(tok.pad_token_id),
                              compute_metrics=compute_metrics,
                              class_weights=class_weights, label_prior=label_prior)
    trainer.train()
    print(trainer.evaluate())


if __name__ == "__main__":
    main()
