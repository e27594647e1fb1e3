"""Sonar-style rock/mine classifier, written against the old Variable / tensor-type API
(ported from a 2017 course notebook, still runs on current PyTorch)."""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.autograd import Variable

use_cuda = torch.cuda.is_available()
FloatTensor = torch.cuda.FloatTensor if use_cuda else torch.FloatTensor
LongTensor = torch.cuda.LongTensor if use_cuda else torch.LongTensor


def sonar_like(n=400, n_bands=60, seed=0):
    rng = np.random.RandomState(seed)
    y = rng.randint(0, 2, n)
    bands = np.linspace(0, 1, n_bands)
    rock = np.exp(-((bands - 0.3) ** 2) / 0.02)
    mine = np.exp(-((bands - 0.6) ** 2) / 0.03)
    X = np.where(y[:, None] == 1, mine, rock) + 0.4 * rng.rand(n, n_bands)
    return X, y


class SonarNet(nn.Module):
    def __init__(self, n_in=60):
        super(SonarNet, self).__init__()
        self.fc1 = nn.Linear(n_in, 60)
        self.fc2 = nn.Linear(60, 30)
        self.fc3 = nn.Linear(30, 2)

    def forward(self, x):
        x = F.relu(self.fc1(x))
        x = F.dropout(F.relu(self.fc2(x)), 0.2, self.training)
        return F.log_softmax(self.fc3(x), dim=1)


def batches(X, y, batch_size, rng):
    order = rng.permutation(len(X))
    for i in range(0, len(X), batch_size):
        idx = order[i:i + batch_size]
        yield X[idx], y[idx]


def main():
    X, y = sonar_like()
    X_train, y_train, X_test, y_test = X[:320], y[:320], X[320:], y[320:]

    model = SonarNet()
    if use_cuda:
        model.cuda()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
    rng = np.random.RandomState(1)

    for epoch in range(30):
        model.train()
        for bx, by in batches(X_train, y_train, 32, rng):
            inputs = Variable(torch.from_numpy(bx).type(FloatTensor))
            targets = Variable(torch.from_numpy(by).type(LongTensor))
            optimizer.zero_grad()
            loss = F.nll_loss(model(inputs), targets)
            loss.backward()
            optimizer.step()
        if epoch % 10 == 0:
            print("epoch %d  loss %.4f" % (epoch, loss.item()))

    model.eval()
    test_x = torch.from_numpy(X_test).type(torch.FloatTensor)
    if use_cuda:
        test_x = test_x.cuda()
    output = model(Variable(test_x))
    pred = output.data.max(1)[1].cpu().numpy()
    print("test accuracy %.3f" % (pred == y_test).mean())


if __name__ == "__main__":
    main()
