"""Tiny BiLSTM-CTC acoustic model: features and targets moved, lengths kept on the CPU
(pack_padded_sequence needs them there, CTCLoss accepts them), decoding on the CPU."""
import torch
import torch.nn as nn
from torch.nn.utils.rnn import pack_padded_sequence, pad_packed_sequence, pad_sequence
from torch.utils.data import DataLoader

VOCAB = ["<blank>"] + list("abcdefgh ")
BLANK = 0


def make_utterance(g):
    n_frames = int(torch.randint(20, 40, (1,), generator=g))
    n_chars = int(torch.randint(3, 8, (1,), generator=g))
    mel = torch.randn(n_frames, 40, generator=g)
    text = torch.randint(1, len(VOCAB), (n_chars,), generator=g)
    return mel, text


def collate(items):
    mels, texts = zip(*items)
    return {
        "mel": pad_sequence(mels, batch_first=True),
        "mel_lens": torch.tensor([m.size(0) for m in mels]),
        "text": torch.cat(texts),
        "text_lens": torch.tensor([t.size(0) for t in texts]),
    }


class CTCModel(nn.Module):
    def __init__(self, n_mels=40, hidden=64, n_tokens=len(VOCAB)):
        super().__init__()
        self.rnn = nn.LSTM(n_mels, hidden, batch_first=True, bidirectional=True)
        self.out = nn.Linear(2 * hidden, n_tokens)

    def forward(self, mel, mel_lens):
        packed = pack_padded_sequence(mel, mel_lens, batch_first=True, enforce_sorted=False)
        h, _ = self.rnn(packed)
        h, _ = pad_packed_sequence(h, batch_first=True)
        return self.out(h).log_softmax(-1)


def greedy_decode(log_probs, lens):
    best = log_probs.argmax(-1).cpu().numpy()
    hyps = []
    for row, n in zip(best, lens.tolist()):
        prev, chars = BLANK, []
        for tok in row[:n]:
            if tok != prev and tok != BLANK:
                chars.append(VOCAB[tok])
            prev = tok
        hyps.append("".join(chars))
    return hyps


def main():
    device = "cuda" if torch.cuda.is_available() else "cpu"
    g = torch.Generator().manual_seed(0)
    data = [make_utterance(g) for _ in range(48)]
    loader = DataLoader(data, batch_size=8, shuffle=True, collate_fn=collate)

    model = CTCModel().to(device)
    ctc = nn.CTCLoss(blank=BLANK, zero_infinity=True)
    opt = torch.optim.Adam(model.parameters(), lr=2e-3)

    for epoch in range(2):
        for batch in loader:
            mel = batch["mel"].to(device)
            log_probs = model(mel, batch["mel_lens"])
            loss = ctc(log_probs.transpose(0, 1), batch["text"].to(device),
                       batch["mel_lens"], batch["text_lens"])
            opt.zero_grad()
            loss.backward()
            opt.step()
        print(f"epoch {epoch} ctc {loss.item():.3f}")

    model.eval()
    batch = next(iter(loader))
    with torch.no_grad():
        lp = model(batch["mel"].to(device), batch["mel_lens"])
    print(greedy_decode(lp, batch["mel_lens"])[:2])


if __name__ == "__main__":
    main()
