"""BiLSTM-CTC phone recogniser on fake filterbank features, with SpecAugment-style masking."""
import random

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.utils.rnn import pack_padded_sequence, pad_packed_sequence, pad_sequence
from torch.utils.data import DataLoader, Dataset

N_FEATS = 40
VOCAB = ["_", "a", "e", "i", "o", "u", "k", "s", "t"]  # index 0 is the CTC blank


class FakeUtterances(Dataset):
    def __init__(self, n=96, seed=0):
        rng = random.Random(seed)
        self.items = []
        for _ in range(n):
            L = rng.randint(3, 7)
            target = [rng.randint(1, len(VOCAB) - 1) for _ in range(L)]
            frames = []
            for tok in target:
                dur = rng.randint(4, 8)
                centre = torch.zeros(N_FEATS)
                centre[tok * 4:(tok + 1) * 4] = 3.0
                frames.append(centre.repeat(dur, 1) + 0.3 * torch.randn(dur, N_FEATS))
            self.items.append((torch.cat(frames), torch.tensor(target)))

    def __len__(self):
        return len(self.items)

    def __getitem__(self, i):
        return self.items[i]


def collate(batch):
    feats, targets = zip(*batch)
    feat_lens = torch.tensor([f.shape[0] for f in feats])
    tgt_lens = torch.tensor([t.shape[0] for t in targets])
    return pad_sequence(feats, batch_first=True), feat_lens, torch.cat(targets), tgt_lens


def time_mask(feats, max_width=6, n_masks=2):
    B, T, _ = feats.shape
    mask = torch.ones(B, T, 1)  # expect: DEV006
    for b in range(B):
        for _ in range(n_masks):
            w = random.randint(0, max_width)
            t0 = random.randint(0, max(T - w, 0))
            mask[b, t0:t0 + w] = 0.0
    return feats * mask


class CTCModel(nn.Module):
    def __init__(self, hidden=128, specaug=True):
        super().__init__()
        self.specaug = specaug
        self.lstm = nn.LSTM(N_FEATS, hidden, num_layers=2, batch_first=True, bidirectional=True)
        self.proj = nn.Linear(2 * hidden, len(VOCAB))

    def forward(self, feats, lengths):
        if self.training and self.specaug:
            feats = time_mask(feats)
        packed = pack_padded_sequence(feats, lengths, batch_first=True, enforce_sorted=False)
        out, _ = self.lstm(packed)
        out, _ = pad_packed_sequence(out, batch_first=True)
        return F.log_softmax(self.proj(out), dim=-1)   # (B, T, V)


def greedy_decode(log_probs, lengths):
    best = log_probs.argmax(-1).numpy()  # expect: DEV011
    hyps = []
    for seq, L in zip(best, lengths.tolist()):
        out, prev = [], 0
        for s in seq[:L]:
            if s != prev and s != 0:
                out.append(VOCAB[s])
            prev = s
        hyps.append("".join(out))
    return hyps


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    loader = DataLoader(FakeUtterances(), batch_size=16, shuffle=True, collate_fn=collate)
    model = CTCModel().to(device)
    ctc = nn.CTCLoss(blank=0, zero_infinity=True)
    opt = torch.optim.Adam(model.parameters(), lr=2e-3)

    for epoch in range(3):
        model.train()
        for feats, feat_lens, targets, tgt_lens in loader:
            feats, targets = feats.to(device), targets.to(device)
            log_probs = model(feats, feat_lens)
            # lengths stay on the CPU, CTCLoss takes them from there
            loss = ctc(log_probs.transpose(0, 1), targets, feat_lens, tgt_lens)
            opt.zero_grad()
            loss.backward()
            nn.utils.clip_grad_norm_(model.parameters(), 5.0)
            opt.step()
        print(f"epoch {epoch} ctc {loss.item():.3f}")

    model.eval()
    with torch.no_grad():
        feats, feat_lens, targets, tgt_lens = next(iter(loader))
        log_probs = model(feats.to(device), feat_lens)
        print(greedy_decode(log_probs, feat_lens)[:4])


if __name__ == "__main__":
    main()
