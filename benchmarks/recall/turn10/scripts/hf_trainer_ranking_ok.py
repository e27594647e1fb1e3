"""Correct look-alike: a reward-model Trainer whose compute_loss builds the ranking target with
torch.ones_like (on the scores' device), and an evaluation prediction_step that puts its
per-class temperatures on the logits' device.

Thread: https://github.com/RUCAIBox/RecBole/pull/1873 (calculate_loss fixed by creating the
helper tensors where the model's outputs are).
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
    def __init__(self, *args, score_temperature=1.0, **kwargs):
        super().__init__(*args, **kwargs)
        self.score_temperature = score_temperature

    def compute_loss(self, model, inputs, return_outputs=False, num_items_in_batch=None):
        s_pos, s_neg = model(inputs["chosen"], inputs["rejected"])
        target = torch.ones_like(s_pos)
        loss = F.margin_ranking_loss(s_pos, s_neg, target, margin=0.5)
        return (loss, {"chosen": s_pos, "rejected": s_neg}) if return_outputs else loss

    def prediction_step(self, model, inputs, prediction_loss_only, ignore_keys=None):
        inputs = self._prepare_inputs(inputs)
        with torch.no_grad():
            s_pos, s_neg = model(inputs["chosen"], inputs["rejected"])
            temp = torch.tensor([self.score_temperature], device=s_pos.device)
            margin = (s_pos - s_neg) / temp
            loss = F.softplus(-margin).mean()
        if prediction_loss_only:
            return loss, None, None
        return loss, margin, torch.ones_like(margin)


if __name__ == "__main__":
    args = TrainingArguments(output_dir="rm_out", per_device_train_batch_size=16, num_train_epochs=2,
                             eval_strategy="epoch", report_to=[], remove_unused_columns=False)
    trainer = RankingTrainer(model=Scorer(), args=args, train_dataset=PreferencePairs(),
                             eval_dataset=PreferencePairs(32), score_temperature=2.0)
    trainer.train()
    print(trainer.evaluate())
