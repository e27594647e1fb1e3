"""Train a dual-encoder retriever with in-batch and hard negatives, then report Recall@k.

Written from transformers "Update clip loss calculation" (in-batch targets moved to
logits.device), gritlm "question about emb loss" (torch.arange(..., device=scores.device)),
facebookresearch/faiss "Can't add cuda tensors to GPUIndex" / cruise-screening "not able to
convert cuda tensor to numpy in faiss search", and amazon-science/chronos "Move tokenizer to
device" / sycamore "Move tokenized data to device": the batch helper in data.py skips the
hard negatives, the loss in losses.py builds its targets on the CPU, and Recall@k calls
.numpy() on GPU scores.
"""
import torch
from torch.utils.data import DataLoader

from data import VOCAB, TriplesDataset, collate, to_device
from losses import in_batch_nce, recall_at_k
from model import DualEncoder


@torch.no_grad()
def evaluate(model, loader, device):
    model.eval()
    qs, ds = [], []
    for batch in loader:
        qs.append(model.encode_query(batch["q_ids"].to(device)))
        ds.append(model.encode_doc(batch["d_ids"].to(device)))
    return recall_at_k(torch.cat(qs), torch.cat(ds))


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    torch.manual_seed(0)
    train_loader = DataLoader(TriplesDataset(seed=0), batch_size=64, shuffle=True,
                              collate_fn=collate, drop_last=True)
    eval_loader = DataLoader(TriplesDataset(n=200, seed=1), batch_size=100, collate_fn=collate)

    model = DualEncoder(VOCAB).to(device)
    opt = torch.optim.AdamW(model.parameters(), lr=2e-3, weight_decay=0.01)

    for epoch in range(6):
        model.train()
        total = 0.0
        for batch in train_loader:
            batch = to_device(batch, device)
            q, d, neg = model(batch["q_ids"], batch["d_ids"], batch["neg_ids"])  # expect: DEV002
            loss = in_batch_nce(q, d, neg)
            opt.zero_grad(set_to_none=True)
            loss.backward()
            opt.step()
            total += loss.item()
        metrics = evaluate(model, eval_loader, device)
        print(f"epoch {epoch} loss {total / len(train_loader):.3f} " +
              " ".join(f"{k}={v:.3f}" for k, v in metrics.items()))

    torch.save({k: v.cpu() for k, v in model.state_dict().items()}, "dual_encoder.pt")


if __name__ == "__main__":
    main()
