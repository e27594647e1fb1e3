"""Tiny U-Net for scene segmentation with post-hoc logit adjustment: the log class prior measured
on the training masks is subtracted from the logits.

Thread: https://github.com/Lightning-AI/pytorch-lightning/issues/3674 (a tensor kept as a plain
module attribute is not moved to the expected device with the model).
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


def conv_block(c_in, c_out):
    return nn.Sequential(nn.Conv2d(c_in, c_out, 3, padding=1), nn.BatchNorm2d(c_out), nn.ReLU(),
                         nn.Conv2d(c_out, c_out, 3, padding=1), nn.ReLU())


class PriorUNet(nn.Module):
    def __init__(self, num_classes, class_freq, width=16):
        super().__init__()
        self.enc1, self.enc2 = conv_block(3, width), conv_block(width, 2 * width)
        self.dec = conv_block(3 * width, width)
        self.head = nn.Conv2d(width, num_classes, 1)
        self.aux_head = None
        freq = torch.tensor(class_freq, dtype=torch.float32)
        self.log_prior = (freq / freq.sum()).log()  # expect: DEV010

    def forward(self, x):
        e1 = self.enc1(x)
        e2 = self.enc2(F.max_pool2d(e1, 2))
        d = self.dec(torch.cat([e1, F.interpolate(e2, scale_factor=2.0)], dim=1))
        logits = self.head(d) - self.log_prior[:, None, None]
        if self.training and self.aux_head is not None:
            return logits, F.interpolate(self.aux_head(e2), scale_factor=2.0)
        return logits
