"""Image-classifier test loop that stores predicted and true labels in Python lists and builds a
scikit-learn confusion matrix.

Thread: https://github.com/wengong-jin/hgraph2graph/issues/40 (np.array over CUDA accuracy tensors);
https://github.com/neuro-ml/thunder/issues/49.
"""
import torch
import torch.nn as nn
from sklearn.metrics import confusion_matrix
from torch.utils.data import DataLoader, TensorDataset


def test(model, loader, device):
    y_pred, y_true = [], []
    model.eval()
    with torch.no_grad():
        for imgs, labels in loader:
            out = model(imgs.to(device))
            y_pred.extend(out.argmax(1))
            y_true.extend(labels.tolist())
    return confusion_matrix(y_true, y_pred)  # expect: DEV011


if __name__ == "__main__":
    dev = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    cnn = nn.Sequential(nn.Conv2d(1, 8, 3), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(8, 4)).to(dev)
    dl = DataLoader(TensorDataset(torch.randn(64, 1, 12, 12), torch.randint(0, 4, (64,))), batch_size=16)
    print(test(cnn, dl, dev))
