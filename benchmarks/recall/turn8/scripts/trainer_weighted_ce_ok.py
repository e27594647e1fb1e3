"""Trainer subclass with class weights in compute_loss; the weights follow the logits' device.

Look-alike of trainer_weighted_ce_attr.py. Thread: https://github.com/sacdallago/biotrainer/issues/67
"""
import torch
import torch.nn.functional as F
from transformers import AutoModelForSequenceClassification, Trainer, TrainingArguments


class WeightedTrainer(Trainer):
    def __init__(self, *args, label_counts=None, **kwargs):
        super().__init__(*args, **kwargs)
        freq = torch.tensor(label_counts, dtype=torch.float32)
        self.inv_freq = freq.sum() / (len(label_counts) * freq)

    def compute_loss(self, model, inputs, return_outputs=False, num_items_in_batch=None):
        targets = inputs.pop("labels")
        outputs = model(**inputs)
        w = self.inv_freq.to(outputs.logits.device)
        loss = F.cross_entropy(outputs.logits, targets, weight=w)
        return (loss, outputs) if return_outputs else loss


def main(train_ds, eval_ds):
    model = AutoModelForSequenceClassification.from_pretrained("distilbert-base-uncased", num_labels=4)
    args = TrainingArguments(output_dir="out", per_device_train_batch_size=16, num_train_epochs=1)
    trainer = WeightedTrainer(model=model, args=args, train_dataset=train_ds, eval_dataset=eval_ds,
                              label_counts=[900, 120, 60, 20])
    trainer.train()
