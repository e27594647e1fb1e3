"""Fine-tune a timm backbone on a small flower dataset: the pretrained model is created and placed
on the GPU, then its classifier is reset to the dataset's number of classes."""
import argparse

import timm
import torch
import torch.nn.functional as F
from torch.utils.data import DataLoader
from torchvision import datasets, transforms


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--data", default="./flowers")
    parser.add_argument("--arch", default="convnext_nano")
    parser.add_argument("--epochs", type=int, default=5)
    args = parser.parse_args()
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")

    tf = transforms.Compose([transforms.RandomResizedCrop(224), transforms.RandomHorizontalFlip(), transforms.ToTensor(),
                             transforms.Normalize((0.485, 0.456, 0.406), (0.229, 0.224, 0.225))])
    train = datasets.ImageFolder(f"{args.data}/train", tf)
    loader = DataLoader(train, batch_size=32, shuffle=True, num_workers=4)

    model = timm.create_model(args.arch, pretrained=True)
    model = model.to(device)
    model.reset_classifier(len(train.classes))  # expect: DEV015
    for name, p in model.named_parameters():
        p.requires_grad = name.startswith("head")
    opt = torch.optim.AdamW([p for p in model.parameters() if p.requires_grad], lr=1e-3)

    for epoch in range(args.epochs):
        model.train()
        for x, y in loader:
            x, y = x.to(device), y.to(device)
            loss = F.cross_entropy(model(x), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
        print(epoch, loss.item())


if __name__ == "__main__":
    main()
