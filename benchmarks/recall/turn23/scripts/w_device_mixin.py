"""Trainer and evaluator share a DeviceMixin that owns the device and the batch-moving helper."""
import torch
import torch.nn as nn


class DeviceMixin:
    device = torch.device("cpu")

    def setup_device(self, prefer_gpu=True):
        use_gpu = prefer_gpu and torch.cuda.is_available()
        self.device = torch.device("cuda" if use_gpu else "cpu")
        return self.device

    def to_device(self, tensors):
        return {k: v.to(self.device, non_blocking=True) for k, v in tensors.items()}


class ConfusionEvaluator(DeviceMixin):
    def __init__(self, num_classes):
        self.num_classes = num_classes
        self.reset()

    def reset(self):
        n = self.num_classes
        self.confusion = torch.zeros(n, n, dtype=torch.long)  # expect: DEV006

    def update(self, preds, labels):
        n = self.num_classes
        idx = labels * n + preds
        self.confusion += torch.bincount(idx, minlength=n * n).view(n, n)

    def summary(self):
        cm = self.confusion.float()
        recall = cm.diag() / cm.sum(1).clamp(min=1)
        return {"acc": (cm.diag().sum() / cm.sum()).item(), "recall": recall.tolist()}


class PatchClassifier(nn.Module):
    def __init__(self, n_classes=4):
        super().__init__()
        self.conv = nn.Sequential(
            nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten()
        )
        self.head = nn.Linear(8, n_classes)

    def forward(self, image):
        return self.head(self.conv(image))


class ClassifierTrainer(DeviceMixin):
    def __init__(self, model, lr=1e-2):
        self.setup_device()
        self.model = model.to(self.device)
        self.criterion = nn.CrossEntropyLoss()
        self.opt = torch.optim.SGD(self.model.parameters(), lr=lr, momentum=0.9)

    def step(self, batch):
        inputs = self.to_device({k: v for k, v in batch.items() if k != "label"})
        labels = batch["label"]
        logits = self.model(**inputs)
        loss = self.criterion(logits, labels)  # expect: DEV004
        self.opt.zero_grad()
        loss.backward()
        self.opt.step()
        return loss.item()

    @torch.no_grad()
    def validate(self, batches, evaluator):
        evaluator.reset()
        self.model.eval()
        for batch in batches:
            batch = self.to_device(batch)
            preds = self.model(image=batch["image"]).argmax(-1)
            evaluator.update(preds, batch["label"])
        self.model.train()
        return evaluator.summary()


def synthetic(n_batches, bs=6):
    return [{"image": torch.randn(bs, 3, 16, 16), "label": torch.randint(0, 4, (bs,))}
            for _ in range(n_batches)]


if __name__ == "__main__":
    torch.manual_seed(1)
    trainer = ClassifierTrainer(PatchClassifier())
    evaluator = ConfusionEvaluator(num_classes=4)
    for epoch in range(2):
        losses = [trainer.step(b) for b in synthetic(5)]
        print(epoch, sum(losses) / len(losses), trainer.validate(synthetic(2), evaluator))
