import zlib

import torch
from torch.utils.data import DataLoader, Dataset

from .postprocess import to_records


class TicketDataset(Dataset):
    def __init__(self, tickets, vocab_size, max_len):
        self.items = []
        for tid, text in tickets:
            ids = [1 + zlib.crc32(w.encode()) % (vocab_size - 1) for w in text.lower().split()][:max_len]
            self.items.append((tid, torch.tensor(ids or [1], dtype=torch.long)))

    def __len__(self):
        return len(self.items)

    def __getitem__(self, i):
        return self.items[i]


def collate(batch):
    ids = [b[0] for b in batch]
    tokens = torch.nn.utils.rnn.pad_sequence([b[1] for b in batch], batch_first=True)
    return ids, tokens


@torch.no_grad()
def run(model, tickets, cfg, device):
    loader = DataLoader(TicketDataset(tickets, cfg.vocab_size, cfg.max_len),
                        batch_size=cfg.batch_size, collate_fn=collate)
    records = []
    for ticket_ids, tokens in loader:
        logits = model(tokens.to(device))
        records.extend(to_records(ticket_ids, logits, cfg.labels))
    return records
