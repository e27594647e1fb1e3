"""HF Trainer subclass for an imbalanced intent classifier: class-weighted focal loss
in compute_loss, and a prediction_step that returns probabilities for the metrics."""
from collections import Counter

import numpy as np
import torch
import torch.nn as nn
from datasets import Dataset
from transformers import (AutoModelForSequenceClassification, AutoTokenizer, Trainer,
                          TrainingArguments)

MODEL = "distilbert-base-uncased"
LABELS = ["greet", "refund", "cancel", "other"]


class FocalTrainer(Trainer):
    def __init__(self, *args, class_weights=None, focal_alpha=None, gamma=2.0, **kwargs):
        super().__init__(*args, **kwargs)
        self.class_weights = class_weights
        self.focal_alpha = focal_alpha
        self.gamma = gamma

    def compute_loss(self, model, inputs, return_outputs=False, num_items_in_batch=None):
        labels = inputs.pop("labels")
        outputs = model(**inputs)
        logits = outputs.logits
        ce = nn.CrossEntropyLoss(weight=self.class_weights, reduction="none")  # expect: DEV012
        ce_loss = ce(logits, labels)
        pt = torch.exp(-ce_loss)
        alpha = torch.tensor(self.focal_alpha, dtype=logits.dtype)  # expect: DEV006
        loss = (alpha[labels] * (1 - pt) ** self.gamma * ce_loss).mean()
        return (loss, outputs) if return_outputs else loss

    def prediction_step(self, model, inputs, prediction_loss_only, ignore_keys=None):
        inputs = self._prepare_inputs(inputs)
        labels = inputs.get("labels")
        with torch.no_grad():
            loss, outputs = self.compute_loss(model, dict(inputs), return_outputs=True)
        probs = outputs.logits.softmax(-1)
        return loss.detach(), probs.detach(), labels


def compute_metrics(eval_pred):
    probs, labels = eval_pred
    preds = probs.argmax(-1)
    per_class = [float((preds[labels == c] == c).mean()) if (labels == c).any() else 0.0
                 for c in range(len(LABELS))]
    return {"accuracy": float((preds == labels).mean()), "balanced_acc": float(np.mean(per_class))}


def main():
    texts = ["hi there", "I want my money back", "cancel my plan", "what time is it"] * 8
    labels = [0, 1, 2, 3] * 6 + [1] * 8
    tok = AutoTokenizer.from_pretrained(MODEL)
    ds = Dataset.from_dict({"text": texts, "label": labels})
    ds = ds.map(lambda b: tok(b["text"], truncation=True, padding="max_length", max_length=16), batched=True)
    split = ds.train_test_split(test_size=0.25, seed=0)

    counts = Counter(split["train"]["label"])
    freq = np.array([counts.get(i, 1) for i in range(len(LABELS))], dtype=np.float32)
    class_weights = torch.tensor(freq.sum() / (len(LABELS) * freq), dtype=torch.float32)

    model = AutoModelForSequenceClassification.from_pretrained(MODEL, num_labels=len(LABELS))
    args = TrainingArguments("out_focal", per_device_train_batch_size=8, num_train_epochs=1,
                             eval_strategy="epoch", report_to=[], logging_steps=2)
    trainer = FocalTrainer(model=model, args=args, train_dataset=split["train"], eval_dataset=split["test"],
                           compute_metrics=compute_metrics, class_weights=class_weights,
                           focal_alpha=[0.25, 0.5, 0.5, 0.25])
    trainer.train()
    print(trainer.evaluate())


if __name__ == "__main__":
    main()
