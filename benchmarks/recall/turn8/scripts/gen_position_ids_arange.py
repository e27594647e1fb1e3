"""Greedy decoding with a small GPT-style model that takes explicit position ids; the positions are
rebuilt every step.

Thread: https://github.com/huggingface/transformers/pull/39981 ([Idefics] fix device mismatch when
computing position_ids); https://github.com/hiyouga/LlamaFactory/pull/10453 (torch.arange without
device for position ids).
"""
import torch
import torch.nn as nn


class TinyLM(nn.Module):
    def __init__(self, vocab=100, dim=32, ctx=64):
        super().__init__()
        self.tok = nn.Embedding(vocab, dim)
        self.pos = nn.Embedding(ctx, dim)
        self.block = nn.TransformerEncoderLayer(dim, 4, 64, batch_first=True)
        self.head = nn.Linear(dim, vocab)

    def forward(self, ids, position_ids):
        return self.head(self.block(self.tok(ids) + self.pos(position_ids)))


@torch.no_grad()
def greedy(lm, prompt_ids, steps, device):
    seq = prompt_ids.to(device)
    for _ in range(steps):
        positions = torch.arange(seq.size(1)).unsqueeze(0)  # expect: DEV006
        logits = lm(seq, positions)
        nxt = logits[:, -1].argmax(-1, keepdim=True)
        seq = torch.cat([seq, nxt], dim=1)
    return seq


if __name__ == "__main__":
    dev = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    lm = TinyLM().to(dev).eval()
    print(greedy(lm, torch.randint(0, 100, (2, 5)), 8, dev).shape)
