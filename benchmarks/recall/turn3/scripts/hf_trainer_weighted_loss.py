"""Imbalanced intent classification: a Trainer subclass with class weights in compute_loss."""
import numpy as np
import torch
import torch.nn as nn
from datasets import load_dataset
from transformers import AutoModelForSequenceClassification, AutoTokenizer, Trainer, TrainingArguments

MODEL = "distilbert-base-uncased"


class WeightedLossTrainer(Trainer):
    def __init__(self, *args, class_weights=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.class_weights = torch.tensor(class_weights, dtype=torch.float32)

    def compute_loss(self, model, inputs, return_outputs=False, num_items_in_batch=None):
        labels = inputs.pop("labels")
        outputs = model(**inputs)
        logits = outputs.get("logits")
        loss_fct = nn.CrossEntropyLoss(weight=self.class_weights)  # expect: DEV012
        loss = loss_fct(logits.view(-1, self.model.config.num_labels), labels.view(-1))
        return (loss, outputs) if return_outputs else loss


def main():
    ds = load_dataset("banking77")
    tok = AutoTokenizer.from_pretrained(MODEL)
    ds = ds.map(lambda b: tok(b["text"], truncation=True, padding="max_length", max_length=64), batched=True)
    ds = ds.rename_column("label", "labels")
    counts = np.bincount(ds["train"]["labels"], minlength=77)
    weights = (counts.sum() / (77 * np.maximum(counts, 1))).tolist()
    model = AutoModelForSequenceClassification.from_pretrained(MODEL, num_labels=77)
    args = TrainingArguments("out/banking77", per_device_train_batch_size=32, num_train_epochs=3,
                             eval_strategy="epoch", learning_rate=3e-5, report_to="none")
    trainer = WeightedLossTrainer(model=model, args=args, train_dataset=ds["train"], eval_dataset=ds["test"],
                                  class_weights=weights)
    trainer.train()


if __name__ == "__main__":
    main()
