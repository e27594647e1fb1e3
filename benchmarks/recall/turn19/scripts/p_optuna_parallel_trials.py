"""Optuna search over a small MLP classifier, two trials at a time (n_jobs=2),
each trial on its own GPU.
"""
import optuna
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

N_TRIALS = 6
EPOCHS = 3
IN_DIM, CLASSES = 32, 4

DEVICES = ["cuda:0", "cuda:1"] if torch.cuda.is_available() else ["cpu", "cpu"]  # expect: DEV018


def get_data(seed):
    g = torch.Generator().manual_seed(seed)
    w = torch.randn(IN_DIM, CLASSES, generator=g)
    x = torch.randn(512, IN_DIM, generator=g)
    y = (x @ w).argmax(1)
    return TensorDataset(x[:384], y[:384]), TensorDataset(x[384:], y[384:])


TRAIN, VALID = get_data(0)


def define_model(trial):
    n_layers = trial.suggest_int("n_layers", 1, 3)
    layers, in_features = [], IN_DIM
    for i in range(n_layers):
        out_features = trial.suggest_int(f"n_units_l{i}", 16, 128, log=True)
        layers += [nn.Linear(in_features, out_features), nn.ReLU()]
        p = trial.suggest_float(f"dropout_l{i}", 0.0, 0.5)
        layers.append(nn.Dropout(p))
        in_features = out_features
    layers += [nn.Linear(in_features, CLASSES), nn.LogSoftmax(dim=1)]
    return nn.Sequential(*layers)


def objective(trial):
    device = torch.device(DEVICES[trial.number % len(DEVICES)])
    model = define_model(trial).to(device)
    optimizer_name = trial.suggest_categorical("optimizer", ["Adam", "RMSprop", "SGD"])
    lr = trial.suggest_float("lr", 1e-4, 1e-1, log=True)
    optimizer = getattr(torch.optim, optimizer_name)(model.parameters(), lr=lr)
    batch_size = trial.suggest_categorical("batch_size", [32, 64])
    train_loader = DataLoader(TRAIN, batch_size=batch_size, shuffle=True)
    valid_loader = DataLoader(VALID, batch_size=128)

    for epoch in range(EPOCHS):
        model.train()
        for data, target in train_loader:
            data = data.to(device)
            optimizer.zero_grad()
            output = model(data)
            loss = F.nll_loss(output, target)  # expect: DEV004
            loss.backward()
            optimizer.step()

        model.eval()
        correct = 0
        with torch.no_grad():
            for data, target in valid_loader:
                data, target = data.to(device), target.to(device)
                pred = model(data).argmax(dim=1)
                correct += pred.eq(target).sum().item()
        accuracy = correct / len(VALID)

        trial.report(accuracy, epoch)
        if trial.should_prune():
            raise optuna.exceptions.TrialPruned()
    return accuracy


if __name__ == "__main__":
    optuna.logging.set_verbosity(optuna.logging.WARNING)
    study = optuna.create_study(direction="maximize", sampler=optuna.samplers.TPESampler(seed=0))
    study.optimize(objective, n_trials=N_TRIALS, n_jobs=2)
    print("best value:", study.best_value)
    print("best params:", study.best_trial.params)
