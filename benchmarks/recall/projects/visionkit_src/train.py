import sys
from pathlib import Path

import torch
import torch.nn.functional as F

sys.path.insert(0, str(Path(__file__).resolve().parent / "src"))

from visionkit import PatchClassifier, build_loaders, to_device  # noqa: E402


def main(epochs=2):
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    train_loader, val_loader = build_loaders(num_classes=5)
    model = PatchClassifier(num_classes=5).to(device)
    optimizer = torch.optim.AdamW(model.parameters(), lr=3e-3, weight_decay=0.05)

    for epoch in range(epochs):
        model.train()
        for batch in train_loader:
            images, labels = to_device(batch, device)
            logits = model(images)
            loss = F.cross_entropy(logits, labels)  # expect: DEV004
            optimizer.zero_grad(set_to_none=True)
            loss.backward()
            optimizer.step()

        model.eval()
        preds, targets = [], []
        with torch.no_grad():
            for batch in val_loader:
                images, labels = to_device(batch, device)
                preds.append(model(images).argmax(dim=1).cpu())
                targets.append(labels.cpu())
        acc = (torch.cat(preds) == torch.cat(targets)).float().mean().item()
        print(f"epoch {epoch}: loss {loss.item():.4f} val acc {acc:.3f}")


if __name__ == "__main__":
    main()
