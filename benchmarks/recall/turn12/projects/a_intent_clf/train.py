"""Train and evaluate the intent classifier (runner half of the project).

The model comes from intent/model.py, batches from intent/batching.py (whose
`to_device` leaves the labels where they are) and the report from
intent/metrics.py. Written from "Expected all tensors to be on the same device,
but found at least two devices, cuda:0 and cpu! (when checking argument for
argument target in method wrapper_nll_loss_forward)" threads.
"""
import torch
import torch.nn.functional as F
from torch.utils.data import DataLoader

from intent.batching import SyntheticIntents, collate, to_device
from intent.metrics import intent_report
from intent.model import IntentEncoder

N_INTENTS, VOCAB = 6, 300


@torch.no_grad()
def evaluate(model, loader, device):
    model.eval()
    all_logits, all_labels = [], []
    for batch in loader:
        batch = to_device(batch, device)
        all_logits.append(model(batch["input_ids"], batch["attention_mask"]))
        all_labels.append(batch["labels"])
    return intent_report(torch.cat(all_logits), torch.cat(all_labels), N_INTENTS)


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    torch.manual_seed(0)
    train_loader = DataLoader(SyntheticIntents(800, VOCAB, N_INTENTS, seed=0), batch_size=32,
                              shuffle=True, collate_fn=collate)
    val_loader = DataLoader(SyntheticIntents(200, VOCAB, N_INTENTS, seed=1), batch_size=64,
                            collate_fn=collate)
    model = IntentEncoder(VOCAB, N_INTENTS).to(device)
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3, weight_decay=0.01)

    for epoch in range(4):
        model.train()
        for batch in train_loader:
            batch = to_device(batch, device)
            logits = model(batch["input_ids"], batch["attention_mask"])
            loss = F.cross_entropy(logits, batch["labels"], label_smoothing=0.1)  # expect: DEV004
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        print(f"epoch {epoch} loss {loss.item():.3f}", evaluate(model, val_loader, device))


if __name__ == "__main__":
    main()
