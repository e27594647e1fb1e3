"""How far does int8 dynamic quantization move the outputs of our LSTM tagger?

The fp32 reference runs wherever the model normally runs (GPU in the lab); the
quantized copy is what ships to the CPU-only edge boxes, so quantization is done
on a CPU copy and the quantized model is only ever fed CPU tensors.
"""
import copy
import os
import tempfile

import numpy as np
import torch
import torch.nn as nn


class Tagger(nn.Module):
    def __init__(self, vocab=100, dim=32, hidden=48, n_tags=9):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim)
        self.lstm = nn.LSTM(dim, hidden, batch_first=True, bidirectional=True)
        self.proj = nn.Linear(2 * hidden, n_tags)

    def forward(self, ids):
        h, _ = self.lstm(self.emb(ids))
        return self.proj(h)


def fake_batches(n_batches=4, bs=8, seq=12, vocab=100):
    g = torch.Generator().manual_seed(7)
    return [torch.randint(1, vocab, (bs, seq), generator=g) for _ in range(n_batches)]


def load_tagger(path):
    model = Tagger()
    model.load_state_dict(torch.load(path, map_location="cpu"))
    return model.eval()


def quantize_for_edge(model):
    cpu_copy = copy.deepcopy(model).cpu()
    return torch.ao.quantization.quantize_dynamic(
        cpu_copy, {nn.LSTM, nn.Linear}, dtype=torch.qint8)


def drift_table(fp32_model, q_model, batches, device):
    rows = []
    with torch.no_grad():
        for ids in batches:
            ref = fp32_model(ids.to(device)).softmax(-1).cpu()
            q = q_model(ids).softmax(-1)
            diff = np.abs(ref.numpy() - q.numpy())
            rows.append((diff.max(), diff.mean()))
    return rows


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    ckpt = os.environ.get("TAGGER_CKPT")
    if ckpt is None:
        ckpt = os.path.join(tempfile.mkdtemp(), "tagger.pt")
        torch.save(Tagger().state_dict(), ckpt)

    fp32 = load_tagger(ckpt)
    q_model = quantize_for_edge(fp32)
    fp32.to(device)

    rows = drift_table(fp32, q_model, fake_batches(), device)
    print(f"{'batch':>5} {'max':>9} {'mean':>9}")
    for i, (mx, mean) in enumerate(rows):
        print(f"{i:>5} {mx:9.5f} {mean:9.5f}")


if __name__ == "__main__":
    main()
