"""SpecAugment-style masking applied to batched (B, T, F) features."""
import torch


def frequency_mask(feats, max_width):
    B, _, F = feats.shape
    width = torch.randint(0, max_width + 1, (B, 1, 1), device=feats.device)
    start = torch.randint(0, F - max_width, (B, 1, 1), device=feats.device)
    bins = torch.arange(F, device=feats.device).view(1, 1, F)
    return feats.masked_fill((bins >= start) & (bins < start + width), 0.0)


def time_mask(feats, feat_lens, max_width):
    B, T, _ = feats.shape
    keep = torch.ones(B, T, 1)  # expect: DEV006
    for b in range(B):
        width = int(torch.randint(0, max_width + 1, (1,)))
        start = int(torch.randint(0, max(1, int(feat_lens[b]) - width), (1,)))
        keep[b, start:start + width] = 0.0
    return feats * keep


def spec_augment(feats, feat_lens, freq_width, time_width):
    return time_mask(frequency_mask(feats, freq_width), feat_lens, time_width)
