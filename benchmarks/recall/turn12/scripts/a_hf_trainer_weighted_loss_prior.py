"""Imbalanced intent classification with a Trainer subclass: a class-weighted
compute_loss and a prediction_step that applies a logit-adjustment prior.

Written in the spirit of "Class weights need to be sent to the device when
use_class_weights=True" and "Throwing more specific errors for CrossEntropyLoss
weights being on a different device than the input/target": the Trainer puts the
model and the batch on args.device, but the weight vector and the log-prior are
rebuilt from Python lists on every call and never leave the CPU.
"""
import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import Dataset
from transformers import BertConfig, BertForSequenceClassification, Trainer, TrainingArguments

NUM_LABELS = 4
CLASS_COUNTS = [120, 30, 8, 2]


class ToyIntents(Dataset):
    def __init__(self, n=64, seq_len=12, vocab=100, seed=0):
        g = torch.Generator().manual_seed(seed)
        self.ids = torch.randint(1, vocab, (n, seq_len), generator=g)
        self.labels = torch.randint(0, NUM_LABELS, (n,), generator=g)

    def __len__(self):
        return len(self.labels)

    def __getitem__(self, i):
        return {
            "input_ids": self.ids[i],
            "attention_mask": torch.ones_like(self.ids[i]),
            "labels": self.labels[i],
        }


class WeightedTrainer(Trainer):
    def __init__(self, *args, class_counts=None, tau=1.0, **kwargs):
        super().__init__(*args, **kwargs)
        counts = np.asarray(class_counts, dtype=np.float64)
        self.class_weights = (counts.sum() / (len(counts) * counts)).tolist()
        self.priors = (counts / counts.sum()).tolist()
        self.tau = tau

    def compute_loss(self, model, inputs, return_outputs=False, num_items_in_batch=None):
        labels = inputs.pop("labels")
        outputs = model(**inputs)
        loss_fct = nn.CrossEntropyLoss(weight=torch.tensor(self.class_weights, dtype=torch.float32))  # expect: DEV012
        loss = loss_fct(outputs.logits.view(-1, NUM_LABELS), labels.view(-1))
        return (loss, outputs) if return_outputs else loss

    def prediction_step(self, model, inputs, prediction_loss_only, ignore_keys=None):
        inputs = self._prepare_inputs(inputs)
        labels = inputs["labels"]
        with torch.no_grad():
            loss, outputs = self.compute_loss(model, dict(inputs), return_outputs=True)
        logits = outputs.logits.detach()
        # logit adjustment (Menon et al.): subtract tau * log(prior) at test time
        log_prior = torch.log(torch.tensor(self.priors, dtype=logits.dtype))  # expect: DEV006
        logits = logits - self.tau * log_prior
        if prediction_loss_only:
            return loss.detach(), None, None
        return loss.detach(), logits, labels


def compute_metrics(eval_pred):
    logits, labels = eval_pred
    preds = logits.argmax(-1)
    per_class = [float((preds[labels == c] == c).mean()) if (labels == c).any() else 0.0
                 for c in range(NUM_LABELS)]
    return {"accuracy": float((preds == labels).mean()), "balanced_accuracy": float(np.mean(per_class))}


def main():
    config = BertConfig(vocab_size=100, hidden_size=32, num_hidden_layers=2, num_attention_heads=2,
                        intermediate_size=64, max_position_embeddings=32, num_labels=NUM_LABELS)
    model = BertForSequenceClassification(config)
    args = TrainingArguments(
        output_dir="/tmp/weighted_intents",
        per_device_train_batch_size=8,
        per_device_eval_batch_size=16,
        num_train_epochs=1,
        learning_rate=5e-4,
        eval_strategy="epoch",
        save_strategy="no",
        logging_steps=4,
        report_to=[],
    )
    trainer = WeightedTrainer(
        model=model,
        args=args,
        train_dataset=ToyIntents(64, seed=0),
        eval_dataset=ToyIntents(32, seed=1),
        compute_metrics=compute_metrics,
        class_counts=CLASS_COUNTS,
        tau=1.0,
    )
    trainer.train()
    print(trainer.evaluate())


if __name__ == "__main__":
    main()
