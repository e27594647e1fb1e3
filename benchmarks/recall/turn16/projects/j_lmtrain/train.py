"""Train / resume the char LM.

    python train.py --max_iters 60
    python train.py --max_iters 120 --resume
"""
import torch

from lmtrain.checkpoint import maybe_resume, save_checkpoint
from lmtrain.config import TrainConfig
from lmtrain.data import DEFAULT_TEXT, CharStream, CharVocab
from lmtrain.model import CharTransformer
from lmtrain.sampling import sample_text


@torch.no_grad()
def estimate_loss(model, stream, cfg, iters=5):
    model.eval()
    out = {}
    for split in ("train", "val"):
        losses = torch.zeros(iters)
        for k in range(iters):
            x, y = stream.get_batch(split, cfg.batch_size, cfg.device)
            _, loss = model(x, y)
            losses[k] = loss.item()
        out[split] = losses.mean().item()
    model.train()
    return out


def main():
    cfg = TrainConfig.from_args()
    torch.manual_seed(1337)
    vocab = CharVocab(DEFAULT_TEXT)
    stream = CharStream(DEFAULT_TEXT, vocab, cfg.block_size)

    model = CharTransformer(len(vocab), cfg)
    optimizer = torch.optim.AdamW(model.parameters(), lr=cfg.lr, weight_decay=0.1)
    iter_num, best_val = (maybe_resume(cfg.out_dir, model, optimizer) if cfg.resume
                          else (0, float("inf")))
    model.to(cfg.device)

    while iter_num < cfg.max_iters:
        x, y = stream.get_batch("train", cfg.batch_size, cfg.device)
        _, loss = model(x, y)
        optimizer.zero_grad(set_to_none=True)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        optimizer.step()
        iter_num += 1

        if iter_num % cfg.eval_interval == 0:
            losses = estimate_loss(model, stream, cfg)
            print(f"iter {iter_num}: train {losses['train']:.3f} val {losses['val']:.3f}")
            if losses["val"] < best_val:
                best_val = losses["val"]
                save_checkpoint(cfg.out_dir, model, optimizer, iter_num, best_val, cfg)

    print(sample_text(model, vocab, "To be", cfg.sample_len, cfg.device, cfg.temperature))


if __name__ == "__main__":
    main()
