"""Self-distillation: keep a frozen copy of the initial model as teacher while the student trains."""
import copy

import torch
import torch.nn.functional as F
from torch.utils.data import Dataset
from transformers import BertConfig, BertForSequenceClassification, Trainer, TrainingArguments


class RandomPairs(Dataset):
    def __init__(self, n=64, seq_len=16, vocab=120, num_labels=2):
        g = torch.Generator().manual_seed(7)
        self.ids = torch.randint(1, vocab, (n, seq_len), generator=g)
        self.labels = torch.randint(0, num_labels, (n,), generator=g)

    def __len__(self):
        return len(self.labels)

    def __getitem__(self, i):
        return {"input_ids": self.ids[i], "attention_mask": torch.ones_like(self.ids[i]), "labels": self.labels[i]}


class DistillTrainer(Trainer):
    def __init__(self, *args, teacher=None, alpha=0.5, temperature=2.0, **kwargs):
        super().__init__(*args, **kwargs)
        self.teacher = teacher
        self.alpha = alpha
        self.temperature = temperature

    def compute_loss(self, model, inputs, return_outputs=False, **kwargs):
        outputs = model(**inputs)
        with torch.no_grad():
            teacher_logits = self.teacher(**inputs).logits
        T = self.temperature
        kd = F.kl_div(F.log_softmax(outputs.logits / T, dim=-1), F.softmax(teacher_logits / T, dim=-1),
                      reduction="batchmean") * T * T
        loss = self.alpha * outputs.loss + (1 - self.alpha) * kd
        return (loss, outputs) if return_outputs else loss


def main():
    cfg = BertConfig(vocab_size=120, hidden_size=32, num_hidden_layers=2, num_attention_heads=2,
                     intermediate_size=64, num_labels=2)
    student = BertForSequenceClassification(cfg)
    teacher = copy.deepcopy(student).eval()  # expect: DEV016
    for p in teacher.parameters():
        p.requires_grad_(False)

    args = TrainingArguments(output_dir="out_sd", per_device_train_batch_size=8, num_train_epochs=1, report_to=[])
    trainer = DistillTrainer(model=student, args=args, train_dataset=RandomPairs(), teacher=teacher)
    trainer.train()


if __name__ == "__main__":
    main()
