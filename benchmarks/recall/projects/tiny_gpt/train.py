"""Train TinyGPT on a repeated toy corpus, then sample from it."""
import torch
import torch.nn.functional as F

from generate import sample
from model import TinyGPT

TEXT = "to be or not to be, that is the question. " * 20
BLOCK, BATCH = 16, 16


def get_batch(data, device):
    ix = torch.randint(len(data) - BLOCK - 1, (BATCH,))
    x = torch.stack([data[i:i + BLOCK] for i in ix])
    y = torch.stack([data[i + 1:i + 1 + BLOCK] for i in ix])
    return x.to(device), y.to(device)


def main():
    torch.manual_seed(0)
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    chars = sorted(set(TEXT))
    stoi = {c: i for i, c in enumerate(chars)}
    data = torch.tensor([stoi[c] for c in TEXT], dtype=torch.long)

    model = TinyGPT(len(chars), block_size=BLOCK).to(device)
    optimizer = torch.optim.AdamW(model.parameters(), lr=3e-3)
    for step in range(40):
        x, y = get_batch(data, device)
        logits = model(x)
        loss = F.cross_entropy(logits.view(-1, logits.size(-1)), y.view(-1))
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        if step % 10 == 0:
            print(f"step {step}: loss {loss.item():.3f}")
    print(repr(sample(model, chars, start_id=stoi["t"])))


if __name__ == "__main__":
    main()
