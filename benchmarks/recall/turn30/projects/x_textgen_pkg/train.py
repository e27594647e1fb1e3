import torch
import torch.nn.functional as F

from config import TrainConfig
from textgen import MiniGPT

TEXT = ("it was the best of times, it was the worst of times, it was the age of wisdom, "
        "it was the age of foolishness, ") * 30


def get_batch(data, cfg):
    ix = torch.randint(len(data) - cfg.block_size - 1, (cfg.batch_size,))
    x = torch.stack([data[i:i + cfg.block_size] for i in ix])
    y = torch.stack([data[i + 1:i + 1 + cfg.block_size] for i in ix])
    return x.to(cfg.device), y


def main():
    cfg = TrainConfig()
    chars = sorted(set(TEXT))
    stoi = {c: i for i, c in enumerate(chars)}
    data = torch.tensor([stoi[c] for c in TEXT], dtype=torch.long)

    model = MiniGPT(len(chars), cfg.block_size, cfg.d_model, cfg.n_head, cfg.n_layer).to(cfg.device)
    opt = torch.optim.AdamW(model.parameters(), lr=cfg.lr)
    for step in range(cfg.steps):
        x, y = get_batch(data, cfg)
        logits = model(x)
        loss = F.cross_entropy(logits.view(-1, logits.size(-1)), y.view(-1))  # expect: DEV004
        opt.zero_grad(set_to_none=True)
        loss.backward()
        opt.step()
        if step % 20 == 0:
            print(f"step {step}: loss {loss.item():.3f}")

    start = torch.tensor([[stoi["i"]]], device=cfg.device)
    out = model.generate(start, 60, temperature=0.8, top_k=8)
    print("".join(chars[i] for i in out[0].tolist()))


if __name__ == "__main__":
    main()
