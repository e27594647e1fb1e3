"""Reward model for preference data, trained with a Trainer subclass: each row holds the features
of a chosen and of a rejected answer, and a pairwise margin ranking loss pushes the chosen score
above the rejected one.

Thread: https://github.com/unslothai/unsloth/issues/2882 (RuntimeError: Expected all tensors to be
on the same device, raised from inside Trainer.compute_loss).
"""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import Dataset
from transformers import Trainer, TrainingArguments


class PreferencePairs(Dataset):
    def __init__(self, n=128, dim=32):
        self.chosen = torch.randn(n, dim) + 0.3
        self.rejected = torch.randn(n, dim)

    def __len__(self):
        return len(self.chosen)

    def __getitem__(self, i):
        return {"chosen": self.chosen[i], "rejected": self.rejected[i]}


class Scorer(nn.Module):
    def __init__(self, dim=32):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(dim, 64), nn.GELU(), nn.Linear(64, 1))

    def forward(self, chosen, rejected):
        return self.net(chosen).squeeze(-1), self.net(rejected).squeeze(-1)


class RankingTrainer(Trainer):
    def compute_loss(self, model, inputs, return_outputs=False, num_items_in_batch=None):
        s_pos, s_neg = model(inputs["chosen"], inputs["rejected"])
        target = torch.ones(s_pos.size(0))  # expect: DEV006
        loss = F.margin_ranking_loss(s_pos, s_neg, target, margin=0.5)
        return (loss, {"chosen": s_pos, "rejected": s_neg}) if return_outputs else loss


def main():
    args = TrainingArguments(
        output_dir="rm_out",
        per_device_train_batch_size=16,
        num_train_epochs=2,
        learning_rate=1e-3,
        logging_steps=4,
        report_to=[],
        remove_unused_columns=False,
    )
    trainer = RankingTrainer(model=Scorer(), args=args, train_dataset=PreferencePairs())
    trainer.train()


if __name__ == "__main__":
    main()
