"""2018-style PyTorch: Variable wrappers and a use_cuda flag; the port guarded every .cuda() but one.

Thread: https://github.com/diegoalejogm/gans/issues/12 (RuntimeError: Expected object of device type
cuda but got device type cpu for argument #2).
"""
import torch
import torch.nn as nn
from torch.autograd import Variable
from torch.utils.data import DataLoader, TensorDataset

use_cuda = torch.cuda.is_available()


class Net(nn.Module):
    def __init__(self):
        super(Net, self).__init__()
        self.fc1 = nn.Linear(784, 100)
        self.fc2 = nn.Linear(100, 10)

    def forward(self, x):
        return nn.functional.log_softmax(self.fc2(torch.relu(self.fc1(x))), dim=1)


def train(model, loader, optimizer):
    model.train()
    for data, target in loader:
        data = Variable(data.view(-1, 784))
        if use_cuda:
            data = data.cuda()
        target = Variable(target)
        optimizer.zero_grad()
        output = model(data)
        loss = nn.functional.nll_loss(output, target)  # expect: DEV004
        loss.backward()
        optimizer.step()
    return loss.item()


if __name__ == "__main__":
    net = Net()
    if use_cuda:
        net.cuda()
    opt = torch.optim.SGD(net.parameters(), lr=0.01, momentum=0.5)
    ds = TensorDataset(torch.rand(128, 1, 28, 28), torch.randint(0, 10, (128,)))
    print(train(net, DataLoader(ds, batch_size=32), opt))
