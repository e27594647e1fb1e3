"""Multi-label tagging with a Trainer subclass: pos_weight kept on the CPU, moved to the logits' device per step."""
import torch
import torch.nn.functional as F
from datasets import load_dataset
from transformers import AutoModelForSequenceClassification, AutoTokenizer, Trainer, TrainingArguments

MODEL = "roberta-base"
N_TAGS = 28


class BCETrainer(Trainer):
    def __init__(self, *args, pos_weight=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.pos_weight = torch.as_tensor(pos_weight, dtype=torch.float32)

    def compute_loss(self, model, inputs, return_outputs=False, num_items_in_batch=None):
        labels = inputs.pop("labels").float()
        outputs = model(**inputs)
        logits = outputs.logits
        loss = F.binary_cross_entropy_with_logits(logits, labels, pos_weight=self.pos_weight.to(logits.device))
        return (loss, outputs) if return_outputs else loss


def to_multi_hot(batch):
    hot = torch.zeros(len(batch["labels"]), N_TAGS)
    for i, tags in enumerate(batch["labels"]):
        hot[i, tags] = 1.0
    batch["labels"] = hot.tolist()
    return batch


def main():
    tok = AutoTokenizer.from_pretrained(MODEL)
    ds = load_dataset("go_emotions", "simplified").map(to_multi_hot, batched=True)
    ds = ds.map(lambda b: tok(b["text"], truncation=True, max_length=64), batched=True)
    freq = torch.tensor(ds["train"]["labels"]).mean(0).clamp(min=1e-3)
    model = AutoModelForSequenceClassification.from_pretrained(
        MODEL, num_labels=N_TAGS, problem_type="multi_label_classification")
    args = TrainingArguments("out/goemo", per_device_train_batch_size=16, num_train_epochs=2, report_to="none")
    trainer = BCETrainer(model=model, args=args, train_dataset=ds["train"], eval_dataset=ds["validation"],
                         tokenizer=tok, pos_weight=((1 - freq) / freq).tolist())
    trainer.train()


if __name__ == "__main__":
    main()
