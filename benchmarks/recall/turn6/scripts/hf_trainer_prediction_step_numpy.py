"""Sentiment fine-tuning where a Trainer subclass overrides prediction_step to return
calibrated probabilities; the temperature scaling is done with NumPy on the logits."""
import numpy as np
import torch
from datasets import Dataset
from transformers import AutoModelForSequenceClassification, AutoTokenizer, Trainer, TrainingArguments


class TemperatureTrainer(Trainer):
    def __init__(self, *args, temperature=1.5, **kwargs):
        super().__init__(*args, **kwargs)
        self.temperature = temperature

    def prediction_step(self, model, inputs, prediction_loss_only, ignore_keys=None):
        inputs = self._prepare_inputs(inputs)
        labels = inputs.get("labels")
        with torch.no_grad():
            outputs = model(**inputs)
        loss = outputs.loss.detach()
        if prediction_loss_only:
            return loss, None, None
        logits = outputs.logits.detach()
        scaled = np.asarray(logits) / self.temperature  # expect: DEV011
        probs = np.exp(scaled) / np.exp(scaled).sum(-1, keepdims=True)
        return loss, torch.from_numpy(probs), labels


def main():
    name = "prajjwal1/bert-tiny"
    tok = AutoTokenizer.from_pretrained(name)
    model = AutoModelForSequenceClassification.from_pretrained(name, num_labels=2)
    texts = [("good " * (i % 5)) + ("bad " * (i % 3)) for i in range(200)]
    labels = [int(i % 5 > i % 3) for i in range(200)]
    ds = Dataset.from_dict({"text": texts, "labels": labels})
    ds = ds.map(lambda b: tok(b["text"], padding="max_length", truncation=True, max_length=24), batched=True)
    split = ds.train_test_split(test_size=0.25, seed=1)
    args = TrainingArguments("out_temp", per_device_train_batch_size=16, per_device_eval_batch_size=32,
                             num_train_epochs=1, report_to=[])
    trainer = TemperatureTrainer(model=model, args=args, train_dataset=split["train"],
                                 eval_dataset=split["test"], temperature=2.0)
    trainer.train()
    print(trainer.predict(split["test"]).predictions[:4])


if __name__ == "__main__":
    main()
