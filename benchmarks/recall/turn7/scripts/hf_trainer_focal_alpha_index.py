"""Ticket triage with a focal loss: a Trainer subclass keeps per-class alpha factors and looks
them up by label inside compute_loss."""
import torch
import torch.nn.functional as F
from datasets import Dataset
from transformers import AutoModelForSequenceClassification, AutoTokenizer, Trainer, TrainingArguments


class FocalTrainer(Trainer):
    def __init__(self, *args, alpha=(0.25, 0.5, 1.0), gamma=2.0, **kwargs):
        super().__init__(*args, **kwargs)
        self.alpha = torch.tensor(alpha)  # expect: DEV006
        self.gamma = gamma

    def compute_loss(self, model, inputs, return_outputs=False, num_items_in_batch=None):
        labels = inputs.pop("labels")
        outputs = model(**inputs)
        logp = F.log_softmax(outputs.logits, dim=-1).gather(1, labels[:, None]).squeeze(1)
        focal = (1 - logp.exp()) ** self.gamma
        loss = -(self.alpha[labels] * focal * logp).mean()
        return (loss, outputs) if return_outputs else loss


def main():
    name = "prajjwal1/bert-tiny"
    tok = AutoTokenizer.from_pretrained(name)
    texts = ["printer jammed again", "cannot log in", "invoice is wrong"] * 50
    labels = [0, 1, 2] * 50
    ds = Dataset.from_dict({"text": texts, "labels": labels})
    ds = ds.map(lambda b: tok(b["text"], padding="max_length", max_length=12, truncation=True), batched=True)
    model = AutoModelForSequenceClassification.from_pretrained(name, num_labels=3)
    args = TrainingArguments("out_focal", per_device_train_batch_size=16, num_train_epochs=1, report_to=[])
    FocalTrainer(model=model, args=args, train_dataset=ds).train()


if __name__ == "__main__":
    main()
