"""Image classification with accelerate: predictions gathered across processes, then scored with scikit-learn."""
import numpy as np
import torch
import torch.nn as nn
import torchvision
import torchvision.transforms as T
from accelerate import Accelerator
from sklearn.metrics import classification_report
from torch.utils.data import DataLoader


def main():
    accelerator = Accelerator(mixed_precision="fp16")
    tf = T.Compose([T.Resize(224), T.ToTensor(), T.Normalize([0.485, 0.456, 0.406], [0.229, 0.224, 0.225])])
    train_ds = torchvision.datasets.CIFAR10("data", train=True, download=True, transform=tf)
    test_ds = torchvision.datasets.CIFAR10("data", train=False, download=True, transform=tf)
    train_loader = DataLoader(train_ds, batch_size=64, shuffle=True, num_workers=4)
    test_loader = DataLoader(test_ds, batch_size=128, num_workers=4)
    model = torchvision.models.resnet18(num_classes=10)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
    model, optimizer, train_loader, test_loader = accelerator.prepare(model, optimizer, train_loader, test_loader)
    criterion = nn.CrossEntropyLoss()
    for epoch in range(5):
        model.train()
        for images, labels in train_loader:
            loss = criterion(model(images), labels)
            accelerator.backward(loss)
            optimizer.step()
            optimizer.zero_grad()
        model.eval()
        all_preds, all_labels = [], []
        for images, labels in test_loader:
            with torch.no_grad():
                logits = model(images)
            preds, refs = accelerator.gather_for_metrics((logits.argmax(dim=-1), labels))
            all_preds.append(preds.numpy())  # expect: DEV011
            all_labels.append(refs.cpu().numpy())
        if accelerator.is_main_process:
            print(classification_report(np.concatenate(all_labels), np.concatenate(all_preds)))


if __name__ == "__main__":
    main()
