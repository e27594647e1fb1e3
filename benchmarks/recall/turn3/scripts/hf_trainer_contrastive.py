"""Sentence embeddings with in-batch negatives: a Trainer subclass with its own compute_loss."""
import torch
import torch.nn.functional as F
from transformers import AutoModel, AutoTokenizer, Trainer, TrainingArguments


class PairCollator:
    def __init__(self, tokenizer):
        self.tok = tokenizer

    def __call__(self, rows):
        a = self.tok([r["anchor"] for r in rows], padding=True, truncation=True, return_tensors="pt")
        p = self.tok([r["positive"] for r in rows], padding=True, truncation=True, return_tensors="pt")
        return {"a_ids": a["input_ids"], "a_mask": a["attention_mask"],
                "p_ids": p["input_ids"], "p_mask": p["attention_mask"]}


def mean_pool(hidden, mask):
    mask = mask.unsqueeze(-1).float()
    return (hidden * mask).sum(1) / mask.sum(1).clamp(min=1e-6)


class InBatchNegativesTrainer(Trainer):
    temperature = 0.05

    def compute_loss(self, model, inputs, return_outputs=False, num_items_in_batch=None):
        a = mean_pool(model(input_ids=inputs["a_ids"], attention_mask=inputs["a_mask"]).last_hidden_state, inputs["a_mask"])
        p = mean_pool(model(input_ids=inputs["p_ids"], attention_mask=inputs["p_mask"]).last_hidden_state, inputs["p_mask"])
        scores = F.normalize(a, dim=-1) @ F.normalize(p, dim=-1).T / self.temperature
        targets = torch.arange(scores.size(0))  # expect: DEV006
        loss = F.cross_entropy(scores, targets)
        return (loss, scores) if return_outputs else loss


def main():
    from datasets import load_dataset
    tok = AutoTokenizer.from_pretrained("sentence-transformers/all-MiniLM-L6-v2")
    model = AutoModel.from_pretrained("sentence-transformers/all-MiniLM-L6-v2")
    ds = load_dataset("sentence-transformers/all-nli", "pair", split="train[:20000]")
    args = TrainingArguments("out/simcse", per_device_train_batch_size=64, remove_unused_columns=False, report_to="none")
    InBatchNegativesTrainer(model=model, args=args, train_dataset=ds, data_collator=PairCollator(tok)).train()


if __name__ == "__main__":
    main()
