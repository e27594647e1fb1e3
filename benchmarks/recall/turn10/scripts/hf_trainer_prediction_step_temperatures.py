"""Intent classifier trained with the HF Trainer; evaluation divides the logits by per-class
temperatures fitted on a calibration split, in an overridden prediction_step.

Thread: https://github.com/coqui-ai/TTS/issues/1979 (possible Trainer bug: Expected all tensors to
be on the same device, but found at least two devices, cuda:0 and cpu!).
"""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import Dataset
from transformers import Trainer, TrainingArguments


class Utterances(Dataset):
    def __init__(self, n, dim=48, classes=5):
        self.x = torch.randn(n, dim)
        self.y = torch.randint(0, classes, (n,))

    def __len__(self):
        return len(self.y)

    def __getitem__(self, i):
        return {"features": self.x[i], "labels": self.y[i]}


class IntentHead(nn.Module):
    def __init__(self, dim=48, classes=5):
        super().__init__()
        self.mlp = nn.Sequential(nn.Linear(dim, 96), nn.ReLU(), nn.Dropout(0.1), nn.Linear(96, classes))

    def forward(self, features, labels=None):
        logits = self.mlp(features)
        loss = F.cross_entropy(logits, labels) if labels is not None else None
        return {"loss": loss, "logits": logits}


class CalibratedTrainer(Trainer):
    def __init__(self, *args, class_temperatures=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.class_temperatures = class_temperatures

    def prediction_step(self, model, inputs, prediction_loss_only, ignore_keys=None):
        inputs = self._prepare_inputs(inputs)
        with torch.no_grad():
            out = model(**inputs)
        temps = torch.tensor(self.class_temperatures)  # expect: DEV006
        logits = out["logits"] / temps
        loss = F.cross_entropy(logits, inputs["labels"]).detach()
        if prediction_loss_only:
            return loss, None, None
        return loss, logits, inputs["labels"]


def accuracy(pred):
    return {"accuracy": float((np.argmax(pred.predictions, -1) == pred.label_ids).mean())}


if __name__ == "__main__":
    args = TrainingArguments(output_dir="intent_out", per_device_train_batch_size=32, num_train_epochs=1,
                             eval_strategy="epoch", report_to=[])
    trainer = CalibratedTrainer(model=IntentHead(), args=args, train_dataset=Utterances(256),
                                eval_dataset=Utterances(64), compute_metrics=accuracy,
                                class_temperatures=[1.3, 0.9, 1.1, 1.0, 1.6])
    trainer.train()
    print(trainer.evaluate())
