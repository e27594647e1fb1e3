import os

import torch
from torch.utils.data import DataLoader, TensorDataset

from config import class_weights, load_config
from models import SmallConvNet
from trainer import Trainer


def synthetic(cfg, n, seed):
    g = torch.Generator().manual_seed(seed)
    x = torch.rand(n, 1, cfg.image_size, cfg.image_size, generator=g)
    y = torch.multinomial(torch.tensor([0.55, 0.25, 0.15, 0.05]), n, replacement=True,
                          generator=g)
    return TensorDataset(x, y)


def main():
    cfg = load_config()
    train_set, val_set = synthetic(cfg, 96, 0), synthetic(cfg, 32, 1)
    train_loader = DataLoader(train_set, batch_size=cfg.batch_size, shuffle=True)
    val_loader = DataLoader(val_set, batch_size=cfg.batch_size)

    weights = class_weights(train_set.tensors[1], cfg.num_classes)
    trainer = Trainer(SmallConvNet(cfg.num_classes), cfg, weights=weights)
    if cfg.resume and os.path.exists(cfg.checkpoint):
        trainer.resume(cfg.checkpoint)
    trainer.fit(train_loader)
    print(f"balanced accuracy: {trainer.evaluate(val_loader):.3f}")

    images, labels = next(iter(val_loader))
    trainer.model.eval()
    with torch.no_grad():
        preds = trainer.model(images.to(trainer.device)).argmax(dim=1).cpu()
    print("pred:", preds[:8].tolist())
    print("true:", labels[:8].tolist())


if __name__ == "__main__":
    main()
