"""ImageNet-style validation loop reporting top-1 and top-3 accuracy."""
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


class AverageMeter:
    def __init__(self):
        self.sum, self.count = 0.0, 0

    def update(self, val, n=1):
        self.sum += val * n
        self.count += n

    @property
    def avg(self):
        return self.sum / max(self.count, 1)


def validate(val_loader, model, criterion, device, topk=(1, 3)):
    model.eval()
    losses, meters = AverageMeter(), {k: AverageMeter() for k in topk}
    with torch.no_grad():
        for images, target in val_loader:
            images = images.to(device, non_blocking=True)
            output = model(images)
            loss = criterion(output, target.to(device))
            losses.update(loss.item(), images.size(0))
            _, pred = output.topk(max(topk), 1, True, True)
            pred = pred.t()
            correct = pred.eq(target.view(1, -1).expand_as(pred))  # expect: DEV004
            for k in topk:
                meters[k].update(correct[:k].reshape(-1).float().sum().item() * 100.0 / images.size(0), images.size(0))
    return losses.avg, {k: m.avg for k, m in meters.items()}


if __name__ == "__main__":
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = nn.Sequential(nn.Conv2d(3, 8, 3), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(8, 10)).to(device)
    val_loader = DataLoader(TensorDataset(torch.randn(24, 3, 12, 12), torch.randint(0, 10, (24,))), batch_size=8)
    loss, acc = validate(val_loader, model, nn.CrossEntropyLoss().to(device), device)
    print(f"val loss {loss:.4f} top1 {acc[1]:.1f} top3 {acc[3]:.1f}")
