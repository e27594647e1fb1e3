"""Train an intent classifier (embedding + LSTM + MLP), then post-training dynamic
quantization for the CPU inference fleet. Reports accuracy and output drift
fp32 vs int8, and the size of both state dicts.
"""
import copy
import io

import numpy as np
import torch
import torch.nn as nn
from torch.ao.quantization import quantize_dynamic
from torch.utils.data import DataLoader, TensorDataset

VOCAB, SEQ, N_INTENTS = 200, 16, 6


class IntentNet(nn.Module):
    def __init__(self, vocab=VOCAB, emb=64, hidden=96, n_out=N_INTENTS):
        super().__init__()
        self.emb = nn.Embedding(vocab, emb)
        self.lstm = nn.LSTM(emb, hidden, batch_first=True)
        self.head = nn.Sequential(nn.Linear(hidden, hidden), nn.ReLU(), nn.Linear(hidden, n_out))

    def forward(self, tokens):
        out, _ = self.lstm(self.emb(tokens))
        return self.head(out.mean(1))


def make_split(n, seed):
    g = torch.Generator().manual_seed(seed)
    y = torch.randint(0, N_INTENTS, (n,), generator=g)
    x = torch.randint(0, VOCAB, (n, SEQ), generator=g)
    # intent keyword somewhere in the first half of the utterance
    pos = torch.randint(0, SEQ // 2, (n,), generator=g)
    x[torch.arange(n), pos] = y * 10 + 1
    return x, y


def state_dict_mb(model):
    buf = io.BytesIO()
    torch.save(model.state_dict(), buf)
    return buf.getbuffer().nbytes / 1e6


def accuracy(logits, y):
    return (logits.argmax(1) == y).float().mean().item()


def main():
    torch.manual_seed(0)
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    x_tr, y_tr = make_split(2000, 0)
    x_te, y_te = make_split(400, 1)
    loader = DataLoader(TensorDataset(x_tr, y_tr), batch_size=64, shuffle=True)

    model = IntentNet().to(device)
    opt = torch.optim.Adam(model.parameters(), lr=3e-3)
    for epoch in range(3):
        model.train()
        for xb, yb in loader:
            xb, yb = xb.to(device), yb.to(device)
            loss = nn.functional.cross_entropy(model(xb), yb)
            opt.zero_grad()
            loss.backward()
            opt.step()
        print(f"epoch {epoch}: loss {loss.item():.4f}")

    model.eval()
    # quantized kernels are CPU only, so quantize a CPU copy
    qmodel = quantize_dynamic(copy.deepcopy(model).cpu(), {nn.LSTM, nn.Linear}, dtype=torch.qint8)

    with torch.no_grad():
        ref = model(x_te.to(device)).numpy()  # expect: DEV011
        q_out = qmodel(x_te).numpy()

    print(f"fp32 acc {accuracy(torch.from_numpy(ref), y_te):.3f} | int8 acc {accuracy(torch.from_numpy(q_out), y_te):.3f}")
    print(f"max |logit diff| {np.abs(ref - q_out).max():.4f}, "
          f"argmax agreement {(ref.argmax(1) == q_out.argmax(1)).mean():.3f}")
    print(f"state dict: fp32 {state_dict_mb(model):.2f} MB -> int8 {state_dict_mb(qmodel):.2f} MB")
    torch.save(qmodel.state_dict(), "intent_int8.pt")


if __name__ == "__main__":
    main()
