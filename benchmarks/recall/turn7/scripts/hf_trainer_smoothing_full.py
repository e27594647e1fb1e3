"""Label-smoothed loss written by hand in a Trainer subclass: the smoothing target is built in
compute_loss from a uniform vector."""
import torch
import torch.nn.functional as F
from datasets import Dataset
from transformers import AutoModelForSequenceClassification, AutoTokenizer, Trainer, TrainingArguments


class SmoothTrainer(Trainer):
    eps = 0.1

    def compute_loss(self, model, inputs, return_outputs=False, num_items_in_batch=None):
        labels = inputs.pop("labels")
        outputs = model(**inputs)
        n = outputs.logits.size(-1)
        uniform = torch.full((n,), self.eps / n)  # expect: DEV006
        target = F.one_hot(labels, n).float() * (1 - self.eps) + uniform
        loss = -(target * F.log_softmax(outputs.logits, -1)).sum(-1).mean()
        return (loss, outputs) if return_outputs else loss


def main():
    name = "prajjwal1/bert-tiny"
    tok = AutoTokenizer.from_pretrained(name)
    texts = ["great phone", "awful battery", "fine screen", "broken on arrival"] * 40
    labels = [1, 0, 1, 0] * 40
    ds = Dataset.from_dict({"text": texts, "labels": labels})
    ds = ds.map(lambda b: tok(b["text"], padding="max_length", max_length=8, truncation=True), batched=True)
    model = AutoModelForSequenceClassification.from_pretrained(name, num_labels=2)
    args = TrainingArguments("out_smooth", per_device_train_batch_size=16, num_train_epochs=1, report_to=[])
    SmoothTrainer(model=model, args=args, train_dataset=ds).train()


if __name__ == "__main__":
    main()
