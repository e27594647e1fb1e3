"""BiLSTM-CTC phone recogniser on log-mel features with SpecAugment-style masking.

Lengths stay on the CPU (pack_padded_sequence and CTCLoss both accept that).
"""
import argparse

import torch
import torch.nn as nn
from torch.nn.utils.rnn import pack_padded_sequence, pad_packed_sequence, pad_sequence
from torch.utils.data import DataLoader, Dataset

N_PHONES = 40  # + blank
N_MELS = 40


class FreqMask(nn.Module):
    def __init__(self, max_width=8):
        super().__init__()
        self.max_width = max_width

    def forward(self, feats):  # (B, T, F)
        if not self.training:
            return feats
        w = int(torch.randint(0, self.max_width + 1, (1,)))
        f0 = int(torch.randint(0, feats.size(-1) - w + 1, (1,)))
        feats = feats.clone()
        feats[..., f0:f0 + w] = 0.0
        return feats


class TimeMask(nn.Module):
    def __init__(self, max_width=10):
        super().__init__()
        self.max_width = max_width

    def forward(self, feats):
        if not self.training:
            return feats
        w = int(torch.randint(0, self.max_width + 1, (1,)))
        t0 = int(torch.randint(0, max(1, feats.size(1) - w), (1,)))
        feats = feats.clone()
        feats[:, t0:t0 + w] = 0.0
        return feats


class CMVN(nn.Module):
    def __init__(self, mean, std):
        super().__init__()
        self.register_buffer("mean", mean)
        self.register_buffer("std", std)

    def forward(self, feats):
        return (feats - self.mean) / self.std


class PhoneCTC(nn.Module):
    def __init__(self, mean, std, hidden=128):
        super().__init__()
        self.norm = CMVN(mean, std)
        self.augment = nn.ModuleList([FreqMask(), TimeMask(), FreqMask(4)])
        self.lstm = nn.LSTM(N_MELS, hidden, num_layers=2, batch_first=True, bidirectional=True)
        self.out = nn.Linear(2 * hidden, N_PHONES + 1)

    def forward(self, feats, lengths):
        x = self.norm(feats)
        for aug in self.augment:
            x = aug(x)
        packed = pack_padded_sequence(x, lengths, batch_first=True, enforce_sorted=False)
        h, _ = self.lstm(packed)
        h, _ = pad_packed_sequence(h, batch_first=True)
        return self.out(h).log_softmax(-1)


class RandomUtterances(Dataset):
    def __init__(self, n=48):
        self.data = []
        for _ in range(n):
            T = int(torch.randint(30, 80, (1,)))
            L = int(torch.randint(5, 15, (1,)))
            self.data.append((torch.randn(T, N_MELS) * 2 + 1, torch.randint(1, N_PHONES + 1, (L,))))

    def __len__(self):
        return len(self.data)

    def __getitem__(self, i):
        return self.data[i]


def collate(batch):
    feats, labels = zip(*batch)
    return (pad_sequence(feats, batch_first=True), torch.tensor([f.size(0) for f in feats]),
            torch.cat(labels), torch.tensor([l.numel() for l in labels]))


def greedy_decode(log_probs, lengths):
    best = log_probs.argmax(-1).cpu()
    hyps = []
    for seq, n in zip(best, lengths.tolist()):
        seq = torch.unique_consecutive(seq[:n])
        hyps.append([p for p in seq.tolist() if p != 0])
    return hyps


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=2)
    ap.add_argument("--no-cuda", action="store_true")
    args = ap.parse_args()
    use_cuda = torch.cuda.is_available() and not args.no_cuda
    device = torch.device("cuda" if use_cuda else "cpu")

    ds = RandomUtterances()
    all_feats = torch.cat([f for f, _ in ds.data])
    model = PhoneCTC(all_feats.mean(0), all_feats.std(0)).to(device)
    loader = DataLoader(ds, batch_size=8, shuffle=True, collate_fn=collate)
    ctc = nn.CTCLoss(blank=0, zero_infinity=True)
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)

    for epoch in range(args.epochs):
        model.train()
        for feats, feat_lens, targets, target_lens in loader:
            feats = feats.to(device)
            log_probs = model(feats, feat_lens)
            loss = ctc(log_probs.transpose(0, 1), targets, feat_lens, target_lens)
            opt.zero_grad()
            loss.backward()
            opt.step()
        model.eval()
        with torch.no_grad():
            hyps = greedy_decode(model(feats, feat_lens), feat_lens)
        print(f"epoch {epoch} ctc {loss.item():.3f} first hyp len {len(hyps[0])}")


if __name__ == "__main__":
    main()
