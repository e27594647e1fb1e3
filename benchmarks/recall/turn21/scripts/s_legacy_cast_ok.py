"""Same kind of masked-mean sentence classifier, written with casts that keep the
device: .type_as(), .float(), and factories given the device of the labels."""
import torch
import torch.nn as nn
import torch.nn.functional as F

PAD = 0


class MaskedMeanClassifier(nn.Module):
    def __init__(self, vocab, dim, n_cls):
        super().__init__()
        self.embedding = nn.Embedding(vocab, dim, padding_idx=PAD)
        self.proj = nn.Linear(dim, n_cls)

    def forward(self, tokens):
        emb = self.embedding(tokens)
        mask = (tokens != PAD).type_as(emb)
        pooled = (emb * mask.unsqueeze(-1)).sum(1) / mask.sum(1, keepdim=True).clamp(min=1)
        return self.proj(pooled)


def smooth_targets(y, n_cls, eps=0.1):
    t = torch.full((y.size(0), n_cls), eps / (n_cls - 1), device=y.device)
    return t.scatter_(1, y.unsqueeze(1), 1.0 - eps)


def main():
    torch.manual_seed(1)
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = MaskedMeanClassifier(60, 16, 3).to(device)
    optimizer = torch.optim.Adagrad(model.parameters(), lr=0.05)

    tokens_all = torch.randint(1, 60, (40, 10))
    tokens_all[:, 7:] = PAD
    labels_all = torch.randint(0, 3, (40,))
    for epoch in range(3):
        for i in range(0, 40, 8):
            tokens = tokens_all[i:i + 8].to(device)
            y = labels_all[i:i + 8].to(device)
            logits = model(tokens)
            loss = torch.sum(-smooth_targets(y, 3) * F.log_softmax(logits, 1), 1).mean()
            acc = (logits.argmax(1) == y).float().mean()
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        print("epoch %d loss %.4f acc %.2f" % (epoch, loss.item(), acc.item()))


if __name__ == "__main__":
    main()
