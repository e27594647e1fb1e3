"""The built-in sweep: the same training step, from the seed's `Linear(4, 1)` to models a GPU is
built for. Synthetic data, no downloads; every point is built on the CPU with a fixed seed, as
a user's loop builds its model and batches before moving them.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable


@dataclass(frozen=True)
class Point:
    """One model and batch size. `width`/`depth` describe an MLP; a CNN reads them as the channel
    count of its first convolution and the number of convolution blocks."""

    name: str
    kind: str  # linear | mlp | cnn
    batch: int
    width: int = 0
    depth: int = 0
    inputs: int = 4
    classes: int = 10
    image: int = 32  # cnn only: square RGB images

    def describe(self) -> str:
        if self.kind == "linear":
            return f"Linear({self.inputs}, 1), batch {self.batch}"
        if self.kind == "mlp":
            return f"MLP {self.depth} x {self.width} wide, batch {self.batch}"
        return f"CNN {self.depth} conv blocks from {self.width} channels, batch {self.batch}"

    def layer_shapes(self) -> list[tuple[int, int]]:
        """(in, out) of every Linear layer, first to last (linear and mlp points)."""
        if self.kind == "linear":
            return [(self.inputs, 1)]
        if self.kind == "mlp":
            sizes = [self.width] * (self.depth + 1) + [self.classes]
            return list(zip(sizes[:-1], sizes[1:]))
        raise ValueError(f"{self.name} is not made of Linear layers only")

    def analytic_flops(self) -> int:
        """Multiply-adds x 2 of one forward and backward pass of the Linear layers, the count
        FlopCounterMode makes: each layer's forward matmul and weight gradient, and the input
        gradient of every layer but the first (the batch does not require a gradient)."""
        total = 0
        for index, (fan_in, fan_out) in enumerate(self.layer_shapes()):
            matmul = 2 * self.batch * fan_in * fan_out
            total += matmul * (2 if index == 0 else 3)
        return total


# Ordered from the seed's loop up; the budget decides how far a device gets.
SWEEP: tuple[Point, ...] = (
    Point("linear-4x1-b32", "linear", batch=32, inputs=4),
    Point("mlp-128x2-b64", "mlp", batch=64, width=128, depth=2),
    Point("cnn-16x2-b32", "cnn", batch=32, width=16, depth=2),
    Point("mlp-512x3-b128", "mlp", batch=128, width=512, depth=3),
    Point("mlp-1024x4-b256", "mlp", batch=256, width=1024, depth=4),
    Point("cnn-64x3-b128", "cnn", batch=128, width=64, depth=3),
    Point("mlp-2048x4-b512", "mlp", batch=512, width=2048, depth=4),
    Point("mlp-4096x6-b1024", "mlp", batch=1024, width=4096, depth=6),
    Point("mlp-8192x8-b2048", "mlp", batch=2048, width=8192, depth=8),
)


@dataclass
class Built:
    model: Any  # torch.nn.Module, on the CPU
    batches: list  # (inputs, targets) pairs on the CPU
    loss_fn: Callable


def build(point: Point, torch: Any, batches: int = 4, meta: bool = False) -> Built:
    """The point's model, a few distinct batches to cycle through, and its loss. `meta`: shapes
    only, no memory and no arithmetic (for counting FLOPs of points too big to run here)."""
    if meta:
        with torch.device("meta"):
            model = _model(point, torch.nn)
            data = [torch.empty(*_input_shape(point))]
            targets = [torch.empty(point.batch, 1) if point.kind == "linear"
                       else torch.zeros(point.batch, dtype=torch.long)]
        return Built(model, list(zip(data, targets)), _loss(point, torch.nn))
    generator = torch.Generator().manual_seed(0)
    torch.manual_seed(0)
    model = _model(point, torch.nn)
    data = [torch.randn(*_input_shape(point), generator=generator) for _ in range(batches)]
    if point.kind == "linear":
        targets = [torch.randn(point.batch, 1, generator=generator) for _ in range(batches)]
    else:
        targets = [torch.randint(0, point.classes, (point.batch,), generator=generator)
                   for _ in range(batches)]
    return Built(model, list(zip(data, targets)), _loss(point, torch.nn))


def _input_shape(point: Point) -> tuple[int, ...]:
    if point.kind == "cnn":
        return (point.batch, 3, point.image, point.image)
    return (point.batch, point.layer_shapes()[0][0])


def _loss(point: Point, nn: Any) -> Any:
    return nn.MSELoss() if point.kind == "linear" else nn.CrossEntropyLoss()


def _model(point: Point, nn: Any) -> Any:
    if point.kind == "cnn":
        return _cnn(point, nn)
    layers: list = []
    for index, (fan_in, fan_out) in enumerate(point.layer_shapes()):
        if index:
            layers.append(nn.ReLU())
        layers.append(nn.Linear(fan_in, fan_out))
    return layers[0] if len(layers) == 1 else nn.Sequential(*layers)


def _cnn(point: Point, nn: Any) -> Any:
    layers: list = []
    channels, size = 3, point.image
    for block in range(point.depth):
        out = point.width * 2 ** block
        layers += [nn.Conv2d(channels, out, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2)]
        channels, size = out, size // 2
    layers += [nn.Flatten(), nn.Linear(channels * size * size, point.classes)]
    return nn.Sequential(*layers)


def parameter_count(model: Any) -> int:
    return sum(p.numel() for p in model.parameters())


def nbytes(tensors: Any) -> int:
    return sum(t.numel() * t.element_size() for t in tensors)
