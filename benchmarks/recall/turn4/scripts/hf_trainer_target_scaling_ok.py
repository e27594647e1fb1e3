"""Multi-target regression with a Trainer subclass; the label statistics follow the labels' device."""
import torch
import torch.nn.functional as F
from transformers import Trainer


class ScaledRegressionTrainer(Trainer):
    def __init__(self, *args, target_stats=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.target_mean = torch.tensor(target_stats["mean"], dtype=torch.float32)
        self.target_std = torch.tensor(target_stats["std"], dtype=torch.float32)

    def compute_loss(self, model, inputs, return_outputs=False, num_items_in_batch=None):
        labels = inputs.pop("labels")
        outputs = model(**inputs)
        mean = self.target_mean.to(labels.device)
        std = self.target_std.to(labels.device)
        loss = F.smooth_l1_loss(outputs.logits, (labels - mean) / std)
        return (loss, outputs) if return_outputs else loss

    def prediction_step(self, model, inputs, prediction_loss_only, ignore_keys=None):
        loss, preds, labels = super().prediction_step(model, inputs, prediction_loss_only, ignore_keys)
        if preds is not None:
            preds = preds * self.target_std.to(preds.device) + self.target_mean.to(preds.device)
            self.last_predictions = preds.detach().cpu().numpy()
        return loss, preds, labels
