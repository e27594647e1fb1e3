"""Correct look-alike: a Trainer subclass with class-weighted compute_loss, a
prediction_step that applies a logit-adjustment prior, and a distillation
teacher -- every extra tensor or module follows the batch / args.device.

Written against the same threads as the weighted-loss and self-distillation
scripts ("Class weights need to be sent to the device when use_class_weights=True",
"Ensure tensors are on the same device" for the nlp-with-transformers distillation
notebook, "Knowledge distillation tutorial initial commit").
"""
import copy

import torch
import torch.nn.functional as F
from torch.utils.data import Dataset
from transformers import BertConfig, BertForSequenceClassification, Trainer, TrainingArguments

NUM_LABELS = 3


class ToyTopics(Dataset):
    def __init__(self, n=64, seq_len=12, vocab=100, seed=0):
        g = torch.Generator().manual_seed(seed)
        self.ids = torch.randint(1, vocab, (n, seq_len), generator=g)
        self.labels = torch.multinomial(torch.tensor([0.7, 0.2, 0.1]), n, replacement=True, generator=g)

    def __len__(self):
        return len(self.labels)

    def __getitem__(self, i):
        return {"input_ids": self.ids[i], "attention_mask": torch.ones_like(self.ids[i]),
                "labels": self.labels[i]}


class AdjustedDistillTrainer(Trainer):
    def __init__(self, *args, teacher=None, class_weights=None, priors=None, tau=1.0, **kwargs):
        super().__init__(*args, **kwargs)
        self.teacher = teacher.to(self.args.device).eval()
        self.class_weights = torch.as_tensor(class_weights, dtype=torch.float32)
        self.log_prior = torch.log(torch.as_tensor(priors, dtype=torch.float32))
        self.tau = tau

    def compute_loss(self, model, inputs, return_outputs=False, num_items_in_batch=None):
        labels = inputs.pop("labels")
        outputs = model(**inputs)
        logits = outputs.logits
        ce = F.cross_entropy(logits, labels, weight=self.class_weights.to(logits.device))
        with torch.no_grad():
            t_logits = self.teacher(**inputs).logits
        kd = F.kl_div(F.log_softmax(logits / 2.0, -1), F.softmax(t_logits / 2.0, -1), reduction="batchmean") * 4.0
        loss = 0.5 * ce + 0.5 * kd
        return (loss, outputs) if return_outputs else loss

    def prediction_step(self, model, inputs, prediction_loss_only, ignore_keys=None):
        inputs = self._prepare_inputs(inputs)
        labels = inputs["labels"]
        with torch.no_grad():
            loss, outputs = self.compute_loss(model, dict(inputs), return_outputs=True)
        logits = outputs.logits.detach() - self.tau * self.log_prior.to(outputs.logits.device)
        if prediction_loss_only:
            return loss.detach(), None, None
        return loss.detach(), logits, labels


def compute_metrics(eval_pred):
    logits, labels = eval_pred
    return {"accuracy": float((logits.argmax(-1) == labels).mean())}


def main():
    config = BertConfig(vocab_size=100, hidden_size=32, num_hidden_layers=2, num_attention_heads=2,
                        intermediate_size=64, max_position_embeddings=32, num_labels=NUM_LABELS)
    student = BertForSequenceClassification(config)
    teacher = copy.deepcopy(student)
    args = TrainingArguments(output_dir="/tmp/adjusted_distill", per_device_train_batch_size=8,
                             per_device_eval_batch_size=16, num_train_epochs=1, eval_strategy="epoch",
                             save_strategy="no", logging_steps=4, report_to=[])
    trainer = AdjustedDistillTrainer(model=student, args=args, train_dataset=ToyTopics(64, seed=0),
                                     eval_dataset=ToyTopics(32, seed=1), compute_metrics=compute_metrics,
                                     teacher=teacher, class_weights=[0.5, 1.5, 3.0],
                                     priors=[0.7, 0.2, 0.1], tau=1.0)
    trainer.train()
    print(trainer.evaluate())


if __name__ == "__main__":
    main()
