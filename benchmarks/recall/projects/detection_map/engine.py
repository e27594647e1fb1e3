import torch

from utils.metrics import mean_average_precision


def train_one_epoch(model, optimizer, loader, device, epoch, print_freq=2):
    model.train()
    for step, (images, targets) in enumerate(loader):
        images = images.to(device)
        loss_dict = model(images, targets)  # expect: DEV002
        loss = sum(loss_dict.values())
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        if step % print_freq == 0:
            parts = " ".join(f"{k} {v.item():.3f}" for k, v in loss_dict.items())
            print(f"epoch {epoch} step {step}: loss {loss.item():.3f} ({parts})")


@torch.no_grad()
def evaluate(model, loader, device, num_classes):
    model.eval()
    outputs, all_targets = [], []
    for images, targets in loader:
        outputs.extend(model(images.to(device)))
        all_targets.extend(targets)
    return mean_average_precision(outputs, all_targets, num_classes)
