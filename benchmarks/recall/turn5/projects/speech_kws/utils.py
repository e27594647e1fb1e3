"""Helpers shared by training and evaluation."""
import torch


def frames_for(num_samples, hop):
    return num_samples // hop + 1


def frame_mask(lengths, hop, max_frames):
    """1.0 for frames that hold audio, 0.0 for padding."""
    frames = lengths // hop + 1
    return (torch.arange(max_frames)[None, :] < frames[:, None]).float()  # expect: DEV006


def pad_batch(batch):
    wavs, labels = zip(*batch)
    lengths = torch.tensor([w.numel() for w in wavs])
    out = torch.zeros(len(wavs), int(lengths.max()))
    for i, w in enumerate(wavs):
        out[i, : w.numel()] = w
    return out, lengths, torch.tensor(labels)
