import torch
from torch.utils.data import Dataset

PAD_ID, BOS_ID, SEP_ID = 0, 1, 2
MODEL_INPUTS = ("input_ids", "attention_mask")


class InstructionDataset(Dataset):
    """Synthetic (instruction, response) pairs: the response is the reversed instruction."""

    def __init__(self, n=64, vocab_size=320, seed=0):
        g = torch.Generator().manual_seed(seed)
        self.examples = []
        for _ in range(n):
            L = int(torch.randint(4, 12, (1,), generator=g))
            instr = torch.randint(3, vocab_size, (L,), generator=g)
            ids = torch.cat([torch.tensor([BOS_ID]), instr, torch.tensor([SEP_ID]), instr.flip(0)])
            labels = ids.clone()
            labels[: L + 2] = -100
            self.examples.append((ids, labels))

    def __len__(self):
        return len(self.examples)

    def __getitem__(self, i):
        return self.examples[i]


def collate(batch):
    T = max(len(ids) for ids, _ in batch)
    out = {
        "input_ids": torch.full((len(batch), T), PAD_ID, dtype=torch.long),
        "attention_mask": torch.zeros((len(batch), T), dtype=torch.long),
        "labels": torch.full((len(batch), T), -100, dtype=torch.long),
    }
    for i, (ids, labels) in enumerate(batch):
        out["input_ids"][i, : len(ids)] = ids
        out["attention_mask"][i, : len(ids)] = 1
        out["labels"][i, : len(labels)] = labels
    return out


def to_device(batch, device):
    """Move the tensors the model consumes; everything else stays as is."""
    return {k: batch[k].to(device, non_blocking=True) for k in MODEL_INPUTS}
