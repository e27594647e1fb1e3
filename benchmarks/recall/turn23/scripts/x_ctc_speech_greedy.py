"""Small CTC acoustic model on synthetic log-mel frames, with greedy decoding.

Global CMVN statistics are computed once from the training set and kept
inside the model so that inference does not need the stats file.
"""
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset

VOCAB = ["<blank>", "a", "e", "i", "o", "u", " "]


class SyntheticUtterances(Dataset):
    def __init__(self, n=24, n_mels=20, seed=0):
        g = torch.Generator().manual_seed(seed)
        self.items = []
        for _ in range(n):
            frames = int(torch.randint(30, 48, (1,), generator=g))
            label_len = int(torch.randint(2, 7, (1,), generator=g))
            feats = torch.randn(frames, n_mels, generator=g) * 2.5 + 4.0
            labels = torch.randint(1, len(VOCAB), (label_len,), generator=g)
            self.items.append((feats, labels))

    def __len__(self):
        return len(self.items)

    def __getitem__(self, idx):
        return self.items[idx]


def collate(batch):
    feats, labels = zip(*batch)
    feat_lens = torch.tensor([f.size(0) for f in feats], dtype=torch.long)
    label_lens = torch.tensor([l.size(0) for l in labels], dtype=torch.long)
    feats = nn.utils.rnn.pad_sequence(feats, batch_first=True)
    return feats, feat_lens, torch.cat(labels), label_lens


def corpus_stats(dataset):
    frames = torch.cat([f for f, _ in dataset.items], dim=0)
    return frames.mean(0), frames.std(0).clamp(min=1e-5)


class CTCAcousticModel(nn.Module):
    def __init__(self, n_mels, hidden, n_tokens, mean, std):
        super().__init__()
        self.cmvn = torch.stack([mean, std])  # expect: DEV010
        self.subsample = nn.Conv1d(n_mels, hidden, kernel_size=3, stride=2, padding=1)
        self.rnn = nn.GRU(hidden, hidden, batch_first=True, bidirectional=True)
        self.head = nn.Linear(2 * hidden, n_tokens)

    def forward(self, feats):
        x = (feats - self.cmvn[0]) / self.cmvn[1]
        x = F.relu(self.subsample(x.transpose(1, 2))).transpose(1, 2)
        x, _ = self.rnn(x)
        return self.head(x).log_softmax(-1)


def subsampled_lengths(feat_lens):
    return (feat_lens + 1) // 2


def greedy_decode(log_probs, out_lens):
    best = log_probs.argmax(-1).numpy()  # expect: DEV011
    hyps = []
    for row, n in zip(best, out_lens.tolist()):
        prev, chars = 0, []
        for tok in row[:n]:
            if tok != prev and tok != 0:
                chars.append(VOCAB[tok])
            prev = tok
        hyps.append("".join(chars))
    return hyps


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=2)
    parser.add_argument("--no-cuda", action="store_true")
    args = parser.parse_args()
    device = torch.device("cuda" if torch.cuda.is_available() and not args.no_cuda else "cpu")

    train_set = SyntheticUtterances()
    mean, std = corpus_stats(train_set)
    loader = DataLoader(train_set, batch_size=6, shuffle=True, collate_fn=collate)

    model = CTCAcousticModel(20, 32, len(VOCAB), mean, std).to(device)
    ctc = nn.CTCLoss(blank=0, zero_infinity=True)
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)

    for epoch in range(args.epochs):
        model.train()
        for feats, feat_lens, labels, label_lens in loader:
            feats, labels = feats.to(device), labels.to(device)
            log_probs = model(feats)
            # lengths stay on the CPU, as CTCLoss accepts
            loss = ctc(log_probs.transpose(0, 1), labels, subsampled_lengths(feat_lens), label_lens)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        print(f"epoch {epoch} ctc {loss.item():.3f}")

    model.eval()
    with torch.no_grad():
        feats, feat_lens, _, _ = next(iter(loader))
        log_probs = model(feats.to(device))
        print(greedy_decode(log_probs, subsampled_lengths(feat_lens))[:2])


if __name__ == "__main__":
    main()
