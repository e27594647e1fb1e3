import torch
import torch.nn as nn
import torch.nn.functional as F


class DiceCELoss(nn.Module):
    def __init__(self, num_classes, class_weights, ignore_index=255, dice_weight=0.5):
        super().__init__()
        self.num_classes, self.ignore_index, self.dice_weight = num_classes, ignore_index, dice_weight
        self.register_buffer("class_weights", torch.as_tensor(class_weights, dtype=torch.float32))

    def forward(self, logits, target):
        ce = F.cross_entropy(logits, target, weight=self.class_weights, ignore_index=self.ignore_index)
        valid = (target != self.ignore_index).unsqueeze(1)
        safe_target = target.clone()
        safe_target[~valid.squeeze(1)] = 0
        onehot = F.one_hot(safe_target, self.num_classes).permute(0, 3, 1, 2).float()
        probs = logits.softmax(1) * valid
        onehot = onehot * valid
        inter = (probs * onehot).sum((0, 2, 3))
        denom = probs.sum((0, 2, 3)) + onehot.sum((0, 2, 3))
        dice = 1 - (2 * inter + 1) / (denom + 1)
        return ce + self.dice_weight * dice.mean()
