"""Intent classifier for support tickets with a Hugging Face fast tokenizer and a small PyTorch encoder.

From the "Expected all tensors to be on the same device, but found at least two devices, cuda:0
and cpu! (when checking argument for argument index in method wrapper_CUDA__index_select)" threads
where `input_ids` was pulled out of the tokenizer's BatchEncoding before the encoding was moved
("Move input_ids to CUDA", jsonformer #9; lm-evaluation-harness "Put tokens on device").
The tokenizer is built locally from a word-level vocabulary, so nothing is downloaded.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F
from tokenizers import Tokenizer
from tokenizers.models import WordLevel
from tokenizers.pre_tokenizers import Whitespace
from transformers import PreTrainedTokenizerFast

TICKETS = [
    ("my card was charged twice", 0), ("refund the double charge please", 0),
    ("i was billed two times this month", 0), ("charge appeared twice on my card", 0),
    ("cannot log in to my account", 1), ("password reset link does not work", 1),
    ("login page keeps failing", 1), ("locked out of my account", 1),
    ("where is my parcel", 2), ("package has not arrived yet", 2),
    ("delivery is late again", 2), ("tracking shows no update for my parcel", 2),
]


def build_tokenizer(texts):
    words = sorted({w for t in texts for w in t.split()})
    vocab = {"[PAD]": 0, "[UNK]": 1, **{w: i + 2 for i, w in enumerate(words)}}
    core = Tokenizer(WordLevel(vocab, unk_token="[UNK]"))
    core.pre_tokenizer = Whitespace()
    return PreTrainedTokenizerFast(tokenizer_object=core, pad_token="[PAD]", unk_token="[UNK]")


class TicketEncoder(nn.Module):
    def __init__(self, vocab_size, dim=32, n_intents=3):
        super().__init__()
        self.embed = nn.Embedding(vocab_size, dim, padding_idx=0)
        layer = nn.TransformerEncoderLayer(dim, nhead=4, dim_feedforward=64, batch_first=True)
        self.encoder = nn.TransformerEncoder(layer, num_layers=1)
        self.head = nn.Linear(dim, n_intents)

    def forward(self, input_ids, attention_mask):
        h = self.encoder(self.embed(input_ids), src_key_padding_mask=attention_mask == 0)
        m = attention_mask.unsqueeze(-1).float()
        return self.head((h * m).sum(1) / m.sum(1).clamp(min=1))


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    torch.manual_seed(0)
    texts = [t for t, _ in TICKETS]
    labels = torch.tensor([y for _, y in TICKETS])
    tokenizer = build_tokenizer(texts)
    model = TicketEncoder(len(tokenizer)).to(device)
    optimizer = torch.optim.AdamW(model.parameters(), lr=5e-3)

    for epoch in range(30):
        perm = torch.randperm(len(texts))
        for chunk in perm.split(4):
            enc = tokenizer([texts[i] for i in chunk], padding=True, return_tensors="pt")
            input_ids = enc["input_ids"]  # expect: DEV020
            n_unk = int((input_ids == tokenizer.unk_token_id).sum())
            enc = enc.to(device)
            logits = model(input_ids, enc["attention_mask"])  # also: DEV002
            loss = F.cross_entropy(logits, labels[chunk].to(device))
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        if epoch % 10 == 0:
            print(f"epoch {epoch}: loss {loss.item():.3f} unk {n_unk}")

    model.eval()
    query = tokenizer(["my parcel is late", "charged twice"], padding=True, return_tensors="pt").to(device)
    with torch.no_grad():
        pred = model(query["input_ids"], query["attention_mask"]).argmax(-1)
    print("predicted intents:", pred.tolist())


if __name__ == "__main__":
    main()
