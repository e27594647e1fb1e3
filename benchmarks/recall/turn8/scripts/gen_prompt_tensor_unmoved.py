"""Character-level sampling from a trained LSTM: the prompt is encoded into a tensor, the model
is on the GPU.

Thread: https://github.com/rasbt/LLM-workshop-2024/issues/6 (Need to load tokens to device: index
in method wrapper_CUDA__index_select).
"""
import torch
import torch.nn as nn

VOCAB = list("abcdefghijklmnopqrstuvwxyz .")
stoi = {c: i for i, c in enumerate(VOCAB)}


class CharLSTM(nn.Module):
    def __init__(self, n=len(VOCAB), h=64):
        super().__init__()
        self.emb = nn.Embedding(n, h)
        self.rnn = nn.LSTM(h, h, batch_first=True)
        self.out = nn.Linear(h, n)

    def forward(self, ids, state=None):
        y, state = self.rnn(self.emb(ids), state)
        return self.out(y), state


def sample(text, n_new=40, temperature=0.8):
    device = "cuda" if torch.cuda.is_available() else "cpu"
    net = CharLSTM().to(device).eval()
    ctx = torch.tensor([[stoi[c] for c in text]])  # expect: DEV006
    out, state = net(ctx)
    chars = []
    for _ in range(n_new):
        probs = torch.softmax(out[:, -1] / temperature, dim=-1)
        nxt = torch.multinomial(probs, 1)
        chars.append(VOCAB[nxt.item()])
        out, state = net(nxt, state)
    return text + "".join(chars)


if __name__ == "__main__":
    print(sample("the cat "))
