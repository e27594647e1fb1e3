"""Small BiLSTM-CTC recognizer on synthetic log-mel features with greedy decoding."""
import argparse

import torch
import torch.nn.functional as F
from torch import nn
from torch.nn.utils.rnn import pack_padded_sequence, pad_packed_sequence, pad_sequence
from torch.utils.data import DataLoader, Dataset

BLANK = 0
VOCAB = ["<b>"] + list("abcdefgh ")


class SyntheticSpeech(Dataset):
    """Each label frames as a noisy one-hot pattern repeated 3-5 times."""

    def __init__(self, n, n_mels=20, seed=0):
        g = torch.Generator().manual_seed(seed)
        self.items = []
        proto = torch.randn(len(VOCAB), n_mels, generator=g)
        for _ in range(n):
            L = int(torch.randint(3, 8, (1,), generator=g))
            labels = torch.randint(1, len(VOCAB), (L,), generator=g)
            reps = torch.randint(3, 6, (L,), generator=g)
            frames = proto[labels].repeat_interleave(reps, dim=0)
            frames = frames + 0.3 * torch.randn(frames.shape, generator=g)
            self.items.append((frames, labels))

    def __len__(self):
        return len(self.items)

    def __getitem__(self, i):
        return self.items[i]


def collate(batch):
    feats = [b[0] for b in batch]
    labels = [b[1] for b in batch]
    feat_lens = torch.tensor([f.size(0) for f in feats])
    label_lens = torch.tensor([l.size(0) for l in labels])
    return pad_sequence(feats, batch_first=True), feat_lens, pad_sequence(labels, batch_first=True), label_lens


class BiLSTMCTC(nn.Module):
    def __init__(self, n_mels=20, hidden=64, n_tokens=len(VOCAB)):
        super().__init__()
        self.rnn = nn.LSTM(n_mels, hidden, num_layers=2, batch_first=True, bidirectional=True)
        self.out = nn.Linear(2 * hidden, n_tokens)

    def forward(self, feats, feat_lens):
        packed = pack_padded_sequence(feats, feat_lens, batch_first=True, enforce_sorted=False)
        h, _ = self.rnn(packed)
        h, _ = pad_packed_sequence(h, batch_first=True, total_length=feats.size(1))
        return F.log_softmax(self.out(h), dim=-1)


def greedy_decode(log_probs, lens):
    best = log_probs.argmax(-1).numpy()  # expect: DEV011
    hyps = []
    for row, n in zip(best, lens.tolist()):
        prev, out = BLANK, []
        for t in row[:n]:
            if t != prev and t != BLANK:
                out.append(VOCAB[t])
            prev = t
        hyps.append("".join(out))
    return hyps


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=3)
    ap.add_argument("--device", default="cuda" if torch.cuda.is_available() else "cpu")
    args = ap.parse_args()
    device = torch.device(args.device)

    train_loader = DataLoader(SyntheticSpeech(256), batch_size=16, shuffle=True, collate_fn=collate)
    val_loader = DataLoader(SyntheticSpeech(32, seed=1), batch_size=16, collate_fn=collate)
    model = BiLSTMCTC().to(device)
    ctc = nn.CTCLoss(blank=BLANK, zero_infinity=True)
    opt = torch.optim.Adam(model.parameters(), lr=3e-3)

    # shape check on one batch before training
    feats, feat_lens, targets, target_lens = next(iter(train_loader))
    feats = feats.to(device)  # expect: DEV003
    print("log-probs shape:", tuple(model(feats, feat_lens).shape))

    for epoch in range(args.epochs):
        model.train()
        for feats, feat_lens, targets, target_lens in train_loader:
            log_probs = model(feats, feat_lens)  # also: DEV002
            # CTCLoss wants (T, N, C); the lengths stay on the CPU
            loss = ctc(log_probs.transpose(0, 1), targets.to(device), feat_lens, target_lens)
            opt.zero_grad()
            loss.backward()
            nn.utils.clip_grad_norm_(model.parameters(), 5.0)
            opt.step()
        print(f"epoch {epoch}: ctc {loss.item():.3f}")

    model.eval()
    with torch.no_grad():
        feats, feat_lens, targets, target_lens = next(iter(val_loader))
        hyps = greedy_decode(model(feats.to(device), feat_lens), feat_lens)
    refs = ["".join(VOCAB[t] for t in row[:n].tolist()) for row, n in zip(targets, target_lens)]
    for h, r in list(zip(hyps, refs))[:3]:
        print(f"ref={r!r} hyp={h!r}")


if __name__ == "__main__":
    main()
