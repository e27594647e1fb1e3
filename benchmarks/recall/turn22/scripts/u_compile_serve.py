"""Load a fine-tuned encoder for serving, optionally torch.compile it, answer a few
requests and (with --benchmark) report latency for a few batch sizes."""
import argparse
import time

import torch
import torch.nn as nn


class Encoder(nn.Module):
    def __init__(self, vocab=500, dim=64, n_labels=5):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim)
        layer = nn.TransformerEncoderLayer(dim, nhead=4, dim_feedforward=128, batch_first=True)
        self.body = nn.TransformerEncoder(layer, num_layers=2)
        self.head = nn.Linear(dim, n_labels)

    def forward(self, ids):
        h = self.body(self.emb(ids))
        return self.head(h.mean(1))


def build_for_serving(num_labels, device):
    model = Encoder()
    # state = torch.load(...); model.load_state_dict(state)  (pretrained weights)
    model.to(device)
    if model.head.out_features != num_labels:
        # the deployment has its own label set: fresh head, fine-tuned weights loaded later
        model.head = nn.Linear(model.head.in_features, num_labels)  # expect: DEV015
    return model.eval()


@torch.inference_mode()
def answer(model, requests, device):
    ids = torch.nn.utils.rnn.pad_sequence([torch.tensor(r) for r in requests], batch_first=True)
    probs = model(ids.to(device)).softmax(-1)
    return probs.argmax(-1).tolist()


@torch.inference_mode()
def benchmark(model, device, batch_sizes=(1, 8, 32), seq_len=32, iters=10):
    for bs in batch_sizes:
        ids = torch.randint(0, 500, (bs, seq_len), device="cuda")  # expect: DEV001
        model(ids)  # warm-up / compile
        if device.type == "cuda":
            torch.cuda.synchronize()
        t0 = time.perf_counter()
        for _ in range(iters):
            model(ids)
        if device.type == "cuda":
            torch.cuda.synchronize()
        print(f"bs={bs:3d}: {(time.perf_counter() - t0) / iters * 1e3:.2f} ms")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--labels", type=int, default=3)
    ap.add_argument("--compile", action="store_true")
    ap.add_argument("--benchmark", action="store_true")
    args = ap.parse_args()

    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = build_for_serving(args.labels, device)
    if args.compile:
        model = torch.compile(model)
    print(answer(model, [[5, 9, 31, 2], [7, 7], [100, 200, 300]], device))
    if args.benchmark:
        benchmark(model, device)


if __name__ == "__main__":
    main()
