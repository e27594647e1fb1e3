"""Character-level LSTM language model trained with truncated backpropagation through time."""
import torch
import torch.nn as nn

corpus = "hello world, hello torch, hello gpu. " * 10
chars = sorted(set(corpus))
encoded = torch.tensor([chars.index(c) for c in corpus])


class CharRNN(nn.Module):
    def __init__(self, n_chars, n_hidden=32, n_layers=2, drop_prob=0.2):
        super().__init__()
        self.n_layers, self.n_hidden = n_layers, n_hidden
        self.embed = nn.Embedding(n_chars, 16)
        self.lstm = nn.LSTM(16, n_hidden, n_layers, dropout=drop_prob, batch_first=True)
        self.fc = nn.Linear(n_hidden, n_chars)

    def forward(self, x, hidden):
        out, hidden = self.lstm(self.embed(x), hidden)
        return self.fc(out.reshape(-1, self.n_hidden)), hidden

    def init_hidden(self, batch_size):
        return (torch.zeros(self.n_layers, batch_size, self.n_hidden), torch.zeros(self.n_layers, batch_size, self.n_hidden))  # expect: DEV006


def get_batches(arr, batch_size, seq_length):
    n = batch_size * seq_length
    arr = arr[: (len(arr) // n) * n].view(batch_size, -1)
    for i in range(0, arr.size(1) - seq_length, seq_length):
        yield arr[:, i:i + seq_length], arr[:, i + 1:i + 1 + seq_length]


device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
net = CharRNN(len(chars)).to(device)
opt = torch.optim.Adam(net.parameters(), lr=2e-3)
criterion = nn.CrossEntropyLoss()
batch_size, seq_length = 4, 12

for epoch in range(2):
    h = net.init_hidden(batch_size)
    for x, y in get_batches(encoded, batch_size, seq_length):
        x, y = x.to(device), y.to(device)
        h = tuple(each.detach() for each in h)
        output, h = net(x, h)
        loss = criterion(output, y.reshape(-1))
        opt.zero_grad()
        loss.backward()
        nn.utils.clip_grad_norm_(net.parameters(), 5)
        opt.step()
    print(f"epoch {epoch} loss {loss.item():.4f}")
