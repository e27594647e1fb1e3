"""Intent classifier fine-tuned with a Trainer subclass whose compute_loss applies class weights
kept on the trainer object.

Thread: https://github.com/sacdallago/biotrainer/issues/67 (Class weights need to be sent to the
device when use_class_weights=True); also pytorch/pytorch#150750 (weight is on cpu, different from
other tensors on cuda:0).
"""
import torch
import torch.nn.functional as F
from transformers import AutoModelForSequenceClassification, Trainer, TrainingArguments


class WeightedTrainer(Trainer):
    def __init__(self, *args, label_counts=None, **kwargs):
        super().__init__(*args, **kwargs)
        freq = torch.tensor(label_counts, dtype=torch.float32)  # expect: DEV006
        self.inv_freq = freq.sum() / (len(label_counts) * freq)

    def compute_loss(self, model, inputs, return_outputs=False, num_items_in_batch=None):
        targets = inputs.pop("labels")
        outputs = model(**inputs)
        loss = F.cross_entropy(outputs.logits, targets, weight=self.inv_freq)
        return (loss, outputs) if return_outputs else loss


def main(train_ds, eval_ds):
    model = AutoModelForSequenceClassification.from_pretrained("distilbert-base-uncased", num_labels=4)
    args = TrainingArguments(output_dir="out", per_device_train_batch_size=16, num_train_epochs=1)
    trainer = WeightedTrainer(model=model, args=args, train_dataset=train_ds, eval_dataset=eval_ds,
                              label_counts=[900, 120, 60, 20])
    trainer.train()
