"""Sentence classifier on a tiny transformer encoder fed by a BatchEncoding.

Written from tokenizer threads: "Inputs not converted to cuda tensors when
-device is cuda" (cisnlp/simalign#16), "tokenizer.encode_plus returns
torch.tensors loaded on the desired device" (huggingface/transformers#11165) and
"Cast to host memory does not work" (pytorch/pytorch#729, legacy tensor-type
casts): the input ids are taken out of the encoding before it is moved, and the
mean-pooling helper casts the mask with .type(torch.FloatTensor).
"""
import torch
import torch.nn as nn
import torch.nn.functional as F
from transformers import BatchEncoding


class ByteTokenizer:
    """Maps UTF-8 bytes to ids 1..256, pads with 0, returns a BatchEncoding."""

    pad_token_id = 0

    def __call__(self, texts, max_length=48):
        ids = [[b + 1 for b in t.encode("utf-8")[:max_length]] for t in texts]
        width = max(len(x) for x in ids)
        return BatchEncoding(
            {
                "input_ids": [x + [0] * (width - len(x)) for x in ids],
                "attention_mask": [[1] * len(x) + [0] * (width - len(x)) for x in ids],
            },
            tensor_type="pt",
        )


def mean_pool(hidden, attention_mask):
    mask = attention_mask.unsqueeze(-1).type(torch.FloatTensor)  # expect: DEV021
    return (hidden * mask).sum(dim=1) / mask.sum(dim=1).clamp(min=1.0)


class TinyEncoderClassifier(nn.Module):
    def __init__(self, d_model=64, num_labels=2):
        super().__init__()
        self.embed = nn.Embedding(257, d_model, padding_idx=0)
        self.pos = nn.Embedding(64, d_model)
        layer = nn.TransformerEncoderLayer(d_model, nhead=4, dim_feedforward=128, batch_first=True)
        self.encoder = nn.TransformerEncoder(layer, num_layers=2)
        self.head = nn.Linear(d_model, num_labels)

    def forward(self, input_ids, attention_mask):
        positions = torch.arange(input_ids.size(1), device=input_ids.device)
        h = self.embed(input_ids) + self.pos(positions)
        h = self.encoder(h, src_key_padding_mask=attention_mask == 0)
        return self.head(mean_pool(h, attention_mask))


TRAIN = [
    ("the package arrived early and intact", 1), ("support fixed my issue fast", 1),
    ("works exactly as described", 1), ("great value, would buy again", 1),
    ("broke after two days", 0), ("never arrived and no refund", 0),
    ("the manual is useless", 0), ("stopped charging within a week", 0),
]


def main(epochs=30):
    torch.manual_seed(0)
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    tokenizer = ByteTokenizer()
    model = TinyEncoderClassifier().to(device)
    optimizer = torch.optim.AdamW(model.parameters(), lr=3e-4)

    for epoch in range(epochs):
        model.train()
        for start in range(0, len(TRAIN), 4):
            texts, labels = zip(*TRAIN[start:start + 4])
            enc = tokenizer(list(texts))
            input_ids = enc["input_ids"]  # expect: DEV020
            enc = enc.to(device)
            labels = torch.tensor(labels, device=device)
            logits = model(input_ids, enc["attention_mask"])  # also: DEV002
            loss = F.cross_entropy(logits, labels)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        if epoch % 10 == 0:
            print(f"epoch {epoch} loss {loss.item():.4f}")


if __name__ == "__main__":
    main()
