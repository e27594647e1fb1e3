"""BiLSTM + CTC acoustic model on synthetic log-mel frames, with greedy decoding.

Written from FOTS "CTC loss error" ("target doesn't convert to cuda"), icefall "Fixing
torch.ctc err" (only log_probs need to be on the GPU, lengths may stay on the CPU) and
"TypeError: can't convert cuda:0 device type tensor to numpy" reports from decoders: the
first batch is moved once before the loop for a shape check, so the loop's own batches never
reach the GPU, and greedy decoding calls .numpy() on the GPU argmax.
"""
import torch
import torch.nn as nn
from torch.nn.utils.rnn import pack_padded_sequence, pad_packed_sequence
from torch.utils.data import DataLoader, Dataset

N_MELS, VOCAB, BLANK = 40, 12, 0


class SyntheticSpeech(Dataset):
    def __init__(self, n=200, seed=0):
        g = torch.Generator().manual_seed(seed)
        self.items = []
        for _ in range(n):
            length = int(torch.randint(4, 9, (1,), generator=g))
            labels = torch.randint(1, VOCAB, (length,), generator=g)
            frames = labels.repeat_interleave(5)
            feats = torch.randn(len(frames), N_MELS, generator=g) * 0.3
            feats[torch.arange(len(frames)), frames] += 2.0
            self.items.append((feats, labels))

    def __len__(self):
        return len(self.items)

    def __getitem__(self, i):
        return self.items[i]


def collate(batch):
    feats, labels = zip(*batch)
    feat_lens = torch.tensor([f.size(0) for f in feats])
    target_lens = torch.tensor([l.size(0) for l in labels])
    padded = nn.utils.rnn.pad_sequence(feats, batch_first=True)
    return padded, feat_lens, torch.cat(labels), target_lens


class CTCModel(nn.Module):
    def __init__(self, hidden=96):
        super().__init__()
        self.rnn = nn.LSTM(N_MELS, hidden, num_layers=2, batch_first=True, bidirectional=True)
        self.fc = nn.Linear(2 * hidden, VOCAB)

    def forward(self, feats, lens):
        packed = pack_padded_sequence(feats, lens, batch_first=True, enforce_sorted=False)
        out, _ = self.rnn(packed)
        out, _ = pad_packed_sequence(out, batch_first=True)
        return self.fc(out).log_softmax(-1)


def collapse(seq):
    out, prev = [], None
    for s in seq:
        if s != prev and s != BLANK:
            out.append(int(s))
        prev = s
    return out


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    torch.manual_seed(0)
    loader = DataLoader(SyntheticSpeech(), batch_size=16, shuffle=True, collate_fn=collate)
    model = CTCModel().to(device)
    ctc = nn.CTCLoss(blank=BLANK, zero_infinity=True)
    opt = torch.optim.Adam(model.parameters(), lr=2e-3)

    feats, feat_lens, targets, target_lens = next(iter(loader))
    feats, targets = feats.to(device), targets.to(device)  # expect: DEV003
    print("feature batch", tuple(feats.shape), "targets", tuple(targets.shape))

    for epoch in range(5):
        model.train()
        for feats, feat_lens, targets, target_lens in loader:
            log_probs = model(feats, feat_lens)  # also: DEV002
            loss = ctc(log_probs.transpose(0, 1), targets, feat_lens, target_lens)
            opt.zero_grad()
            loss.backward()
            nn.utils.clip_grad_norm_(model.parameters(), 5.0)
            opt.step()
        print(f"epoch {epoch} ctc {loss.item():.3f}")

    model.eval()
    feats, feat_lens, targets, target_lens = next(iter(loader))
    with torch.no_grad():
        log_probs = model(feats.to(device), feat_lens)
    best = log_probs.argmax(-1).numpy()  # expect: DEV011
    refs = torch.split(targets, target_lens.tolist())
    for hyp, ref, n in list(zip(best, refs, feat_lens.tolist()))[:3]:
        print("ref", ref.tolist(), "hyp", collapse(hyp[:n]))


if __name__ == "__main__":
    main()
