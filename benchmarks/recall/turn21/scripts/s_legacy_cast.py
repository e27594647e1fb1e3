"""Old-style (PyTorch 0.4-era habits) fine-tuning of a bag-of-embeddings sentence
classifier with pretrained vectors and hand-made label smoothing."""
import torch
import torch.nn as nn
import torch.nn.functional as F

PAD = 0


class BagClassifier(nn.Module):
    def __init__(self, vectors, n_cls, pad_idx=PAD):
        super().__init__()
        self.pad_idx = pad_idx
        self.embedding = nn.Embedding.from_pretrained(vectors, freeze=False, padding_idx=pad_idx)
        self.fc = nn.Linear(vectors.size(1), n_cls)

    def forward(self, tokens):
        emb = self.embedding(tokens)
        mask = (tokens != self.pad_idx).type(torch.FloatTensor)  # expect: DEV021
        summed = (emb * mask.unsqueeze(-1)).sum(1)
        return self.fc(summed / mask.sum(1, keepdim=True).clamp(min=1))


def pad_batch(seqs):
    width = max(len(s) for s in seqs)
    return torch.LongTensor([s + [PAD] * (width - len(s)) for s in seqs])


def smooth_targets(y, n_cls, eps=0.1):
    targets = torch.FloatTensor(y.size(0), n_cls).fill_(eps / (n_cls - 1))  # expect: DEV006
    targets.scatter_(1, y.unsqueeze(1), 1.0 - eps)
    return targets


def main():
    torch.manual_seed(1)
    use_cuda = torch.cuda.is_available()
    vectors = torch.randn(50, 16)
    n_cls = 3
    model = BagClassifier(vectors, n_cls)
    if use_cuda:
        model = model.cuda()
    optimizer = torch.optim.Adagrad(model.parameters(), lr=0.05)

    corpus = [[int(t) for t in torch.randint(1, 50, (int(n),))] for n in torch.randint(3, 9, (40,))]
    labels = torch.randint(0, n_cls, (40,))
    for epoch in range(3):
        total = 0.0
        for i in range(0, 40, 8):
            tokens = pad_batch(corpus[i:i + 8])
            y = labels[i:i + 8]
            if use_cuda:
                tokens, y = tokens.cuda(), y.cuda()
            logits = model(tokens)
            loss = torch.sum(-smooth_targets(y, n_cls) * F.log_softmax(logits, 1), 1).mean()
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            total += loss.item()
        print("epoch %d loss %.4f" % (epoch, total / 5))


if __name__ == "__main__":
    main()
