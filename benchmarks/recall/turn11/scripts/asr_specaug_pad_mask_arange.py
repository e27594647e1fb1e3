"""Small GRU speech recogniser trained with CTC; the padding mask and a SpecAugment-style time
mask are built inside forward from the utterance lengths.

Thread: https://github.com/mozilla/TTS/issues/491 (RuntimeError: Expected all tensors to be on
the same device, cuda:0 and cpu, raised by a mask the loss built from the lengths).
"""
import random

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset

N_MELS, VOCAB = 40, 30


class Utterances(Dataset):
    def __len__(self):
        return 48

    def __getitem__(self, i):
        frames = random.randint(40, 80)
        return torch.randn(frames, N_MELS), torch.randint(1, VOCAB, (random.randint(5, 12),))


def collate(items):
    feats = nn.utils.rnn.pad_sequence([f for f, _ in items], batch_first=True)
    feat_lens = torch.tensor([f.size(0) for f, _ in items])
    targets = torch.cat([y for _, y in items])
    target_lens = torch.tensor([y.numel() for _, y in items])
    return feats, feat_lens, targets, target_lens


class Recogniser(nn.Module):
    def __init__(self, d=96, max_mask=8):
        super().__init__()
        self.max_mask = max_mask
        self.inp = nn.Linear(N_MELS, d)
        self.rnn = nn.GRU(d, d, batch_first=True, bidirectional=True)
        self.out = nn.Linear(2 * d, VOCAB)

    def forward(self, feats, lens):
        T = feats.size(1)
        pad = torch.arange(T)[None, :] >= lens[:, None]  # expect: DEV006
        drop = pad.clone()
        if self.training:
            start = random.randint(0, T - self.max_mask)
            drop[:, start:start + random.randint(1, self.max_mask)] = True
        h = self.inp(feats).masked_fill(drop[..., None], 0.0)
        h, _ = self.rnn(h)
        return self.out(h).log_softmax(-1)


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = Recogniser().to(device)
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    loader = DataLoader(Utterances(), batch_size=8, shuffle=True, collate_fn=collate)
    for epoch in range(2):
        for feats, feat_lens, targets, target_lens in loader:
            feats, feat_lens = feats.to(device), feat_lens.to(device)
            log_probs = model(feats, feat_lens)
            # CTC takes its targets and lengths on the CPU
            loss = F.ctc_loss(log_probs.transpose(0, 1), targets, feat_lens, target_lens,
                              zero_infinity=True)
            opt.zero_grad()
            loss.backward()
            opt.step()
        print(f"epoch {epoch}: ctc {loss.item():.3f}")


if __name__ == "__main__":
    main()
