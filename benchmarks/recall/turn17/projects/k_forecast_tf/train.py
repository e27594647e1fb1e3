"""Train the forecaster.

    python train.py --epochs 3 --horizon 24
    python train.py --device cpu
"""
import argparse
import dataclasses
import json

import torch

from tsforecast import ForecastConfig, Seq2SeqForecaster, Trainer, make_loaders, synthetic_sensor_data


def parse_args():
    cfg = ForecastConfig()
    ap = argparse.ArgumentParser()
    for f in dataclasses.fields(cfg):
        if f.type in (int, float, str, "int", "float", "str"):
            ap.add_argument(f"--{f.name.replace('_', '-')}", type=type(getattr(cfg, f.name)),
                            default=getattr(cfg, f.name))
    args = ap.parse_args()
    return dataclasses.replace(cfg, **vars(args))


def main():
    cfg = parse_args()
    torch.manual_seed(cfg.seed)
    device = torch.device(cfg.device)
    data = synthetic_sensor_data(n_features=cfg.n_features, seed=cfg.seed)
    loaders, scaler = make_loaders(data, cfg)
    model = Seq2SeqForecaster(cfg.n_features, cfg.hidden, cfg.layers, cfg.horizon, cfg.dropout)
    test = Trainer(model, cfg, device, scaler).fit(loaders)
    print(json.dumps({"config": dataclasses.asdict(cfg), "test": test}, indent=2, default=str))


if __name__ == "__main__":
    main()
