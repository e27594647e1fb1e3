"""GRU intent classifier on variable-length utterances, packed; evaluation under torch.no_grad()."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.utils.rnn import pack_padded_sequence, pad_sequence
from torch.utils.data import DataLoader

VOCAB, N_INTENTS = 40, 4


def collate_batch(batch):
    batch = sorted(batch, key=lambda item: len(item[0]), reverse=True)
    tokens = [item[0] for item in batch]
    lengths = torch.tensor([len(t) for t in tokens])
    intents = torch.tensor([item[1] for item in batch])
    return pad_sequence(tokens, batch_first=True), lengths, intents


class IntentGRU(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(VOCAB, 16, padding_idx=0)
        self.gru = nn.GRU(16, 32, batch_first=True)
        self.out = nn.Linear(32, N_INTENTS)

    def forward(self, tokens, lengths):
        packed = pack_padded_sequence(self.emb(tokens), lengths.cpu(), batch_first=True)
        _, h_n = self.gru(packed)
        return self.out(h_n[-1])


def evaluate(model, loader, device):
    model.eval()
    correct = total = 0
    with torch.no_grad():
        for tokens, lengths, intents in loader:
            logits = model(tokens.to(device), lengths)
            correct += (logits.argmax(-1).cpu() == intents).sum().item()
            total += intents.numel()
    return correct / total


if __name__ == "__main__":
    samples = [(torch.randint(1, VOCAB, (n,)), n % N_INTENTS) for n in [3, 5, 7, 9, 4, 6, 8, 2] * 3]
    loader = DataLoader(samples, batch_size=8, shuffle=True, collate_fn=collate_batch)
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = IntentGRU().to(device)
    optimizer = torch.optim.Adam(model.parameters(), lr=3e-3)
    for epoch in range(2):
        model.train()
        for tokens, lengths, intents in loader:
            tokens = tokens.to(device)
            logits = model(tokens, lengths)
            loss = F.cross_entropy(logits, intents)  # expect: DEV004
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        print(f"epoch {epoch} loss {loss.item():.4f} acc {evaluate(model, loader, device):.3f}")
