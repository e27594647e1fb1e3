"""Trainer subclass done right: smoothing target and class factors made on the logits' device,
predictions copied to the host before NumPy."""
import numpy as np
import torch
import torch.nn.functional as F
from datasets import Dataset
from transformers import AutoModelForSequenceClassification, AutoTokenizer, Trainer, TrainingArguments


class CarefulTrainer(Trainer):
    eps = 0.1

    def __init__(self, *args, alpha=(0.5, 1.0), **kwargs):
        super().__init__(*args, **kwargs)
        self.alpha = list(alpha)

    def compute_loss(self, model, inputs, return_outputs=False, num_items_in_batch=None):
        labels = inputs.pop("labels")
        outputs = model(**inputs)
        logits = outputs.logits
        n = logits.size(-1)
        uniform = torch.full((n,), self.eps / n, device=logits.device)
        alpha = torch.tensor(self.alpha, device=logits.device)
        target = F.one_hot(labels, n).float() * (1 - self.eps) + uniform
        per = -(target * F.log_softmax(logits, -1)).sum(-1)
        loss = (alpha[labels] * per).mean()
        return (loss, outputs) if return_outputs else loss

    def prediction_step(self, model, inputs, prediction_loss_only, ignore_keys=None):
        inputs = self._prepare_inputs(inputs)
        with torch.no_grad():
            outputs = model(**inputs)
        probs = outputs.logits.softmax(-1).detach().cpu().numpy()
        self.last_confidence = float(np.max(probs, axis=1).mean())
        return (outputs.loss.detach(), outputs.logits, inputs.get("labels"))


def main():
    name = "prajjwal1/bert-tiny"
    tok = AutoTokenizer.from_pretrained(name)
    texts = ["good", "bad", "okay", "terrible"] * 40
    ds = Dataset.from_dict({"text": texts, "labels": [1, 0, 1, 0] * 40})
    ds = ds.map(lambda b: tok(b["text"], padding="max_length", max_length=6, truncation=True), batched=True)
    model = AutoModelForSequenceClassification.from_pretrained(name, num_labels=2)
    args = TrainingArguments("out_ok", per_device_train_batch_size=16, num_train_epochs=1, report_to=[])
    trainer = CarefulTrainer(model=model, args=args, train_dataset=ds, eval_dataset=ds)
    trainer.train()
    print(trainer.evaluate())


if __name__ == "__main__":
    main()
