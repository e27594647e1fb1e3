"""Multi-label tagging with the HF Trainer: a custom collator adds per-example
sample weights, compute_loss uses a pos_weight, prediction_step returns
sigmoid probabilities for the metrics.
"""
import argparse

import numpy as np
import torch
import torch.nn.functional as F
from datasets import Dataset
from transformers import AutoModelForSequenceClassification, AutoTokenizer, Trainer, TrainingArguments


class WeightedTagCollator:
    def __init__(self, tokenizer, max_length=32):
        self.tokenizer = tokenizer
        self.max_length = max_length

    def __call__(self, features):
        enc = self.tokenizer(
            [f["text"] for f in features],
            padding=True,
            truncation=True,
            max_length=self.max_length,
            return_tensors="pt",
        )
        enc["labels"] = torch.tensor([f["tags"] for f in features], dtype=torch.float)
        enc["sample_weight"] = torch.tensor([f["weight"] for f in features], dtype=torch.float)
        return dict(enc)


class TaggingTrainer(Trainer):
    def __init__(self, *args, pos_weight=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.pos_weight = pos_weight

    def _loss(self, logits, labels, sample_weight):
        pos_weight = torch.as_tensor(self.pos_weight, dtype=logits.dtype, device=logits.device)
        per_elem = F.binary_cross_entropy_with_logits(logits, labels, pos_weight=pos_weight, reduction="none")
        return (per_elem.mean(dim=1) * sample_weight).sum() / sample_weight.sum()

    def compute_loss(self, model, inputs, return_outputs=False, num_items_in_batch=None):
        labels = inputs.pop("labels")
        sample_weight = inputs.pop("sample_weight")
        outputs = model(**inputs)
        loss = self._loss(outputs.logits, labels, sample_weight)
        return (loss, outputs) if return_outputs else loss

    def prediction_step(self, model, inputs, prediction_loss_only, ignore_keys=None):
        inputs = self._prepare_inputs(inputs)
        labels = inputs.pop("labels")
        sample_weight = inputs.pop("sample_weight")
        with torch.no_grad():
            logits = model(**inputs).logits
            loss = self._loss(logits, labels, sample_weight)
        if prediction_loss_only:
            return loss.detach(), None, None
        return loss.detach(), torch.sigmoid(logits), labels


def compute_metrics(eval_pred):
    probs, labels = eval_pred
    preds = (probs > 0.5).astype(np.int64)
    tp = (preds * labels).sum()
    return {"micro_f1": float(2 * tp / max(preds.sum() + labels.sum(), 1))}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--model", default="bert-base-uncased")
    parser.add_argument("--output-dir", default="out/tags")
    args = parser.parse_args()

    tags = 4
    rows = [
        {"text": f"ticket {i} mentions billing and login", "tags": [int(i % (t + 2) == 0) for t in range(tags)], "weight": 1.0 + (i % 3) / 2}
        for i in range(48)
    ]
    ds = Dataset.from_list(rows)
    tokenizer = AutoTokenizer.from_pretrained(args.model)
    model = AutoModelForSequenceClassification.from_pretrained(
        args.model, num_labels=tags, problem_type="multi_label_classification"
    )
    pos = np.array([r["tags"] for r in rows]).sum(0)
    pos_weight = ((len(rows) - pos) / np.maximum(pos, 1)).tolist()

    trainer = TaggingTrainer(
        model=model,
        args=TrainingArguments(output_dir=args.output_dir, num_train_epochs=1, per_device_train_batch_size=8,
                               remove_unused_columns=False, report_to=[]),
        train_dataset=ds,
        eval_dataset=ds.select(range(16)),
        data_collator=WeightedTagCollator(tokenizer),
        compute_metrics=compute_metrics,
        pos_weight=pos_weight,
    )
    trainer.train()
    print(trainer.evaluate())


if __name__ == "__main__":
    main()
