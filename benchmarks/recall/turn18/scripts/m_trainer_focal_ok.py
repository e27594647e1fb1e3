"""Focal-loss Trainer for an imbalanced 4-way classifier, with per-class alpha,
tuned decision bias at eval time, and an EMA of the weights kept by a callback."""
import copy

import numpy as np
import torch
import torch.nn.functional as F
from torch.utils.data import Dataset
from transformers import BertConfig, BertForSequenceClassification, Trainer, TrainerCallback, TrainingArguments

NUM_LABELS = 4
ALPHA = [0.1, 0.3, 0.3, 0.3]
EVAL_BIAS = [0.0, 0.2, 0.2, 0.5]


class Toy(Dataset):
    def __init__(self, n, seed):
        g = torch.Generator().manual_seed(seed)
        self.x = torch.randint(5, 120, (n, 16), generator=g)
        self.y = torch.multinomial(torch.tensor([0.7, 0.1, 0.1, 0.1]), n, replacement=True, generator=g)

    def __len__(self):
        return len(self.y)

    def __getitem__(self, i):
        return {"input_ids": self.x[i], "attention_mask": torch.ones_like(self.x[i]), "labels": self.y[i]}


class FocalTrainer(Trainer):
    def __init__(self, *args, alpha=None, gamma=2.0, eval_bias=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.alpha = torch.tensor(alpha)
        self.gamma = gamma
        self.eval_bias = eval_bias

    def compute_loss(self, model, inputs, return_outputs=False, num_items_in_batch=None):
        labels = inputs.pop("labels")
        outputs = model(**inputs)
        logits = outputs.logits
        logp = F.log_softmax(logits, dim=-1).gather(1, labels[:, None]).squeeze(1)
        alpha = self.alpha.to(logits.device)[labels]
        loss = (-alpha * (1 - logp.exp()) ** self.gamma * logp).mean()
        return (loss, outputs) if return_outputs else loss

    def prediction_step(self, model, inputs, prediction_loss_only, ignore_keys=None):
        inputs = self._prepare_inputs(inputs)
        labels = inputs["labels"]
        with torch.no_grad():
            loss, outputs = self.compute_loss(model, dict(inputs), return_outputs=True)
        bias = torch.tensor(self.eval_bias, device=outputs.logits.device)
        preds = (outputs.logits + bias).argmax(-1)
        return (loss.detach(), preds, labels)


class EMACallback(TrainerCallback):
    def __init__(self, decay=0.99):
        self.decay = decay
        self.shadow = None

    def on_train_begin(self, args, state, control, model=None, **kwargs):
        self.shadow = copy.deepcopy(model).to(args.device).eval()

    def on_step_end(self, args, state, control, model=None, **kwargs):
        with torch.no_grad():
            for s, p in zip(self.shadow.parameters(), model.parameters()):
                s.lerp_(p.detach(), 1 - self.decay)


def compute_metrics(p):
    preds, labels = p
    return {"acc": float(np.mean(preds == labels))}


if __name__ == "__main__":
    cfg = BertConfig(vocab_size=120, hidden_size=32, num_hidden_layers=1, num_attention_heads=2,
                     intermediate_size=64, max_position_embeddings=32, num_labels=NUM_LABELS)
    args = TrainingArguments(output_dir="/tmp/focal", per_device_train_batch_size=16, num_train_epochs=1,
                             eval_strategy="epoch", report_to=[], save_strategy="no")
    trainer = FocalTrainer(model=BertForSequenceClassification(cfg), args=args, train_dataset=Toy(128, 0),
                           eval_dataset=Toy(32, 1), compute_metrics=compute_metrics, alpha=ALPHA,
                           eval_bias=EVAL_BIAS, callbacks=[EMACallback()])
    trainer.train()
