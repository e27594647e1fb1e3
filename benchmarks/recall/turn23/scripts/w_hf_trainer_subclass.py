"""Imbalanced intent classification with a transformers Trainer subclass:
class-weighted loss in compute_loss and prior correction (logit adjustment) in prediction_step."""
from collections import Counter

import numpy as np
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

MODEL_NAME = "distilbert-base-uncased"
LABELS = ["greeting", "refund", "cancel", "shipping"]


class WeightedPriorTrainer(Trainer):
    def __init__(self, *args, class_weights=None, label_prior=None, tau=1.0, **kwargs):
        super().__init__(*args, **kwargs)
        weights = torch.tensor(class_weights, dtype=torch.float)
        self.loss_fct = nn.CrossEntropyLoss(weight=weights)  # expect: DEV012
        self.label_prior = label_prior
        self.tau = tau

    def compute_loss(self, model, inputs, return_outputs=False, num_items_in_batch=None):
        labels = inputs.pop("labels")
        outputs = model(**inputs)
        loss = self.loss_fct(outputs.logits.view(-1, model.config.num_labels), labels.view(-1))
        return (loss, outputs) if return_outputs else loss

    def prediction_step(self, model, inputs, prediction_loss_only, ignore_keys=None):
        inputs = self._prepare_inputs(inputs)
        labels = inputs.pop("labels")
        with torch.no_grad():
            outputs = model(**inputs)
            loss = self.loss_fct(outputs.logits, labels)
        if prediction_loss_only:
            return loss.detach(), None, None
        log_prior = torch.log(torch.tensor(self.label_prior, dtype=torch.float))  # expect: DEV006
        adjusted = outputs.logits - self.tau * log_prior
        return loss.detach(), adjusted.detach(), labels


def compute_metrics(eval_pred):
    logits, labels = eval_pred
    preds = np.argmax(logits, axis=-1)
    per_class = [float(np.mean(preds[labels == c] == c)) if np.any(labels == c) else 0.0
                 for c in range(len(LABELS))]
    return {"accuracy": float(np.mean(preds == labels)), "balanced_acc": float(np.mean(per_class))}


def main():
    texts = ["hi there", "i want my money back", "cancel my order", "where is my parcel"] * 8
    labels = [0, 1, 2, 3] * 8
    labels[:6] = [0] * 6  # skew toward the first intent
    tok = AutoTokenizer.from_pretrained(MODEL_NAME)
    ds = Dataset.from_dict({"text": texts, "label": labels})
    ds = ds.map(lambda b: tok(b["text"], truncation=True, max_length=32), batched=True)
    split = ds.train_test_split(test_size=0.25, seed=0)

    counts = Counter(split["train"]["label"])
    total = sum(counts.values())
    prior = [counts.get(c, 1) / total for c in range(len(LABELS))]
    class_weights = [total / (len(LABELS) * counts.get(c, 1)) for c in range(len(LABELS))]

    model = AutoModelForSequenceClassification.from_pretrained(MODEL_NAME, num_labels=len(LABELS))
    args = TrainingArguments(
        output_dir="out-intents", per_device_train_batch_size=8, per_device_eval_batch_size=8,
        num_train_epochs=1, eval_strategy="epoch", report_to=[], logging_steps=5,
    )
    trainer = WeightedPriorTrainer(
        model=model, args=args,
        train_dataset=split["train"], eval_dataset=split["test"],
        data_collator=DataCollatorWithPadding(tok),
        compute_metrics=compute_metrics,
        class_weights=class_weights, label_prior=prior,
    )
    trainer.train()
    print(trainer.evaluate())


if __name__ == "__main__":
    main()
