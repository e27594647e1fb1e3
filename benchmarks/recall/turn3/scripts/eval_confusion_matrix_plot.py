"""Evaluate a CNN on a held-out set and plot the confusion matrix and the worst mistakes."""
import matplotlib.pyplot as plt
import torch
import torch.nn as nn
from sklearn.metrics import ConfusionMatrixDisplay, confusion_matrix
from torch.utils.data import DataLoader
from torchvision import datasets, transforms


def build_model():
    return nn.Sequential(nn.Conv2d(1, 32, 3), nn.ReLU(), nn.MaxPool2d(2), nn.Conv2d(32, 64, 3), nn.ReLU(),
                         nn.MaxPool2d(2), nn.Flatten(), nn.Linear(64 * 5 * 5, 10))


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = build_model().to(device)
    model.load_state_dict(torch.load("fashion_cnn.pt", map_location=device))
    model.eval()
    test = datasets.FashionMNIST("data", train=False, download=True, transform=transforms.ToTensor())
    loader = DataLoader(test, batch_size=512)
    y_true, y_pred, worst = [], [], []
    with torch.no_grad():
        for images, labels in loader:
            images = images.to(device)
            probs = model(images).softmax(-1)
            conf, pred = probs.max(-1)
            y_true.append(labels)
            y_pred.append(pred)
            wrong = pred.cpu() != labels
            worst.extend(zip(conf.cpu()[wrong].tolist(), images[wrong]))
    y_true = torch.cat(y_true)
    y_pred = torch.cat(y_pred)
    cm = confusion_matrix(y_true, y_pred)  # expect: DEV011
    ConfusionMatrixDisplay(cm, display_labels=test.classes).plot(xticks_rotation=45)
    plt.savefig("confusion.png")
    worst.sort(key=lambda t: -t[0])
    fig, axes = plt.subplots(1, 8, figsize=(16, 2))
    for ax, (c, img) in zip(axes, worst[:8]):
        ax.imshow(img.squeeze(0).cpu(), cmap="gray")
        ax.set_title(f"{c:.2f}")
    fig.savefig("worst.png")


if __name__ == "__main__":
    main()
