"""Multi-gate mixture-of-experts (MMoE) over tokenized support tickets: topic and urgency heads.

Correct look-alike written from the MoE/multi-task and tokenizer threads (pytorch #15005 "layers
initialized in a list" for multitask heads, transformers #27103 "generate(**inputs) breaks when
inputs are batched on GPU", torchmetrics #1865 "Metrics are just simple nn.Module thus they need to
be moved"): experts and gates live in ModuleLists, the extra head is attached before the move, the
task weights are a buffer, the BatchEncoding is moved before its tensors are read, and the metric
follows the model.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F
from tokenizers import Tokenizer
from tokenizers.models import WordLevel
from tokenizers.pre_tokenizers import Whitespace
from torchmetrics.classification import MulticlassAccuracy
from transformers import PreTrainedTokenizerFast

DATA = [
    ("invoice shows wrong amount", 0, 0), ("refund still missing after two weeks", 0, 1),
    ("server down customers cannot pay", 1, 1), ("app crashes on startup", 1, 1),
    ("how do i change my invoice address", 0, 0), ("dark mode request for the app", 1, 0),
    ("charged twice urgent please fix", 0, 1), ("typo on the settings page", 1, 0),
]


def make_tokenizer():
    words = sorted({w for t, _, _ in DATA for w in t.split()})
    vocab = {"[PAD]": 0, "[UNK]": 1, **{w: i + 2 for i, w in enumerate(words)}}
    core = Tokenizer(WordLevel(vocab, unk_token="[UNK]"))
    core.pre_tokenizer = Whitespace()
    return PreTrainedTokenizerFast(tokenizer_object=core, pad_token="[PAD]", unk_token="[UNK]")


class MMoE(nn.Module):
    def __init__(self, vocab, dim=32, n_experts=3, tasks=("topic", "urgency")):
        super().__init__()
        self.embed = nn.EmbeddingBag(vocab, dim, mode="mean", padding_idx=0)
        self.experts = nn.ModuleList(
            nn.Sequential(nn.Linear(dim, dim), nn.ReLU()) for _ in range(n_experts))
        self.gates = nn.ModuleDict({t: nn.Linear(dim, n_experts) for t in tasks})
        self.heads = nn.ModuleDict({t: nn.Linear(dim, 2) for t in tasks})
        self.register_buffer("task_weights", torch.tensor([1.0, 2.0]))

    def forward(self, input_ids):
        h = self.embed(input_ids)
        expert_out = torch.stack([e(h) for e in self.experts], dim=1)
        outs = {}
        for task, gate in self.gates.items():
            w = gate(h).softmax(-1).unsqueeze(-1)
            outs[task] = self.heads[task]((w * expert_out).sum(1))
        return outs


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    torch.manual_seed(0)
    tok = make_tokenizer()
    model = MMoE(len(tok))
    model.heads["topic"] = nn.Sequential(nn.Dropout(0.1), nn.Linear(32, 2))
    model.to(device)
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)
    topic_acc = MulticlassAccuracy(num_classes=2).to(device)

    texts = [t for t, _, _ in DATA]
    topic = torch.tensor([a for _, a, _ in DATA])
    urgency = torch.tensor([b for _, _, b in DATA])
    for epoch in range(40):
        enc = tok(texts, padding=True, return_tensors="pt").to(device)
        input_ids = enc["input_ids"]
        outs = model(input_ids)
        losses = torch.stack([F.cross_entropy(outs["topic"], topic.to(device)),
                              F.cross_entropy(outs["urgency"], urgency.to(device))])
        loss = (model.task_weights * losses).sum()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        topic_acc.update(outs["topic"].argmax(-1), topic.to(device))
        if epoch % 10 == 0:
            print(f"epoch {epoch}: loss {loss.item():.3f} topic acc {topic_acc.compute().item():.2f}")
            topic_acc.reset()


if __name__ == "__main__":
    main()
