"""Self-distillation with a Trainer subclass: the student is warmed up by hand,
then a frozen deepcopy of it becomes the teacher for a second Trainer run.

Written from threads like "When running the Trainer cell (DistillationTrainer),
it found two devices (cuda:0 and CPU)" and "Set the teacher model to the right
device during INC distillation": Trainer only places `self.model` on args.device,
so a teacher copied before the Trainer exists stays on the CPU and meets the
batch that Trainer already moved.
"""
import copy

import torch
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset
from transformers import BertConfig, BertForSequenceClassification, Trainer, TrainingArguments


class ToySentiment(Dataset):
    def __init__(self, n=96, seq_len=16, vocab=120, seed=0):
        g = torch.Generator().manual_seed(seed)
        self.ids = torch.randint(1, vocab, (n, seq_len), generator=g)
        self.labels = (self.ids[:, :4].sum(1) % 2).long()

    def __len__(self):
        return len(self.labels)

    def __getitem__(self, i):
        return {"input_ids": self.ids[i], "attention_mask": torch.ones_like(self.ids[i]),
                "labels": self.labels[i]}


class SelfDistillTrainer(Trainer):
    def __init__(self, *args, teacher=None, temperature=2.0, alpha=0.5, **kwargs):
        super().__init__(*args, **kwargs)
        self.teacher = teacher.eval()
        self.temperature = temperature
        self.alpha = alpha

    def compute_loss(self, model, inputs, return_outputs=False, num_items_in_batch=None):
        outputs = model(**inputs)
        with torch.no_grad():
            teacher_logits = self.teacher(input_ids=inputs["input_ids"],
                                          attention_mask=inputs["attention_mask"]).logits
        T = self.temperature
        kd = F.kl_div(F.log_softmax(outputs.logits / T, dim=-1),
                      F.softmax(teacher_logits / T, dim=-1), reduction="batchmean") * T * T
        loss = self.alpha * outputs.loss + (1.0 - self.alpha) * kd
        return (loss, outputs) if return_outputs else loss


def warm_up(model, dataset, steps=10):
    """A few plain CPU steps so the teacher is not random."""
    opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
    loader = DataLoader(dataset, batch_size=16, shuffle=True)
    model.train()
    for step, batch in zip(range(steps), loader):
        loss = model(**batch).loss
        loss.backward()
        opt.step()
        opt.zero_grad()
    return model


def main():
    config = BertConfig(vocab_size=120, hidden_size=32, num_hidden_layers=2, num_attention_heads=2,
                        intermediate_size=64, max_position_embeddings=32, num_labels=2)
    train_ds, eval_ds = ToySentiment(96, seed=0), ToySentiment(32, seed=1)
    student = warm_up(BertForSequenceClassification(config), train_ds)

    teacher = copy.deepcopy(student)  # expect: DEV016
    for p in teacher.parameters():
        p.requires_grad_(False)

    args = TrainingArguments(output_dir="/tmp/self_distill", per_device_train_batch_size=16,
                             num_train_epochs=1, learning_rate=3e-4, save_strategy="no",
                             logging_steps=2, report_to=[])
    trainer = SelfDistillTrainer(model=student, args=args, train_dataset=train_ds,
                                 eval_dataset=eval_ds, teacher=teacher, temperature=2.0, alpha=0.3)
    trainer.train()
    print(trainer.evaluate())


if __name__ == "__main__":
    main()
