"""Look-alike for CTC: a small acoustic model on the GPU, with targets and both length tensors left on
the CPU as cuDNN's CTC wants them (PyTorch accepts CPU targets and lengths for CUDA log-probs).

Thread: https://github.com/pytorch/pytorch/issues/43227 (lengths must be on the CPU; the same holds
for pack_padded_sequence).
"""
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset

VOCAB = 29


class Utterances(Dataset):
    def __len__(self):
        return 32

    def __getitem__(self, i):
        t = 40 + i % 10
        return torch.randn(t, 13), torch.randint(1, VOCAB, (5 + i % 4,))


def collate(batch):
    feats, labels = zip(*batch)
    feat_lens = torch.tensor([f.size(0) for f in feats])
    label_lens = torch.tensor([len(l) for l in labels])
    return nn.utils.rnn.pad_sequence(feats, batch_first=True), torch.cat(labels), feat_lens, label_lens


class Acoustic(nn.Module):
    def __init__(self):
        super().__init__()
        self.rnn = nn.GRU(13, 64, batch_first=True, bidirectional=True)
        self.out = nn.Linear(128, VOCAB)

    def forward(self, x):
        return self.out(self.rnn(x)[0]).log_softmax(-1)


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = Acoustic().to(device)
    ctc = nn.CTCLoss(blank=0, zero_infinity=True)
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    for feats, targets, feat_lens, target_lens in DataLoader(Utterances(), batch_size=8, collate_fn=collate):
        feats = feats.to(device)
        log_probs = model(feats).transpose(0, 1)
        loss = ctc(log_probs, targets, feat_lens, target_lens)
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(loss.item())


if __name__ == "__main__":
    main()
