"""Look-alike for packed sequences: token ids and labels moved, lengths deliberately kept on the CPU
for pack_padded_sequence, and a 0-dim CPU loss scale meeting a CUDA loss.

Thread: https://github.com/facebookresearch/fairseq/pull/3557 ('lengths' argument should be a 1D CPU
int64 tensor, but got 1D cuda:0 Long tensor).
"""
import torch
import torch.nn as nn
from torch.nn.utils.rnn import pack_padded_sequence, pad_packed_sequence
from torch.utils.data import DataLoader, Dataset


class Reviews(Dataset):
    def __len__(self):
        return 40

    def __getitem__(self, i):
        n = 5 + i % 7
        return torch.randint(1, 300, (n,)), torch.tensor(float(i % 2))


def collate(batch):
    seqs, ys = zip(*batch)
    lengths = torch.tensor([len(s) for s in seqs])
    return nn.utils.rnn.pad_sequence(seqs, batch_first=True), lengths, torch.stack(ys)


class Classifier(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(300, 32, padding_idx=0)
        self.lstm = nn.LSTM(32, 32, batch_first=True)
        self.fc = nn.Linear(32, 1)

    def forward(self, ids, lengths):
        packed = pack_padded_sequence(self.emb(ids), lengths, batch_first=True, enforce_sorted=False)
        out, (h, _) = self.lstm(packed)
        _, _ = pad_packed_sequence(out, batch_first=True)
        return self.fc(h[-1]).squeeze(1)


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = Classifier().to(device)
    crit = nn.BCEWithLogitsLoss()
    scale = torch.tensor(0.5)
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    for ids, lengths, y in DataLoader(Reviews(), batch_size=8, collate_fn=collate):
        ids, y = ids.to(device), y.to(device)
        loss = crit(model(ids, lengths), y) * scale
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(loss.item())


if __name__ == "__main__":
    main()
