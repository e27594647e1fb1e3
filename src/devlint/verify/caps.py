"""Shorten the data, not the script: every DataLoader yields at most `max_batches` batches per
epoch, so validation, epoch-end and checkpointing code runs in a verify run, where a step cap
alone would end a long first epoch before any of it. A loader's epoch ends at the cap only where
the end of its data is handled: a `for` loop (or a comprehension, `zip`, `enumerate` in one)
consumes it, directly or through generators that a `for` consumes. A loader pulled by hand with
`next()` (an endless stream, a step loop that draws its own batches) is not cut: the ending
would surface as the script's own StopIteration; its step loop ends at --max-steps instead
(loops.py). A loader that finished `max_epochs` epochs ends the epoch loop around it
(loops.py); one about to start epoch BACKSTOP * `max_epochs` + 1 stops the run (the backstop
for epoch loops the rewrite cannot end). Runs in the verify child only (imports torch).
"""
from __future__ import annotations

import dis
import sys
from dataclasses import asdict, dataclass
from typing import Optional

import torch.utils.data

from devlint.verify.loops import BACKSTOP
from devlint.verify.recorder import Stopper

_FOR_ITER = {code for name, code in dis.opmap.items() if name.endswith("FOR_ITER")}
_CO_GENERATOR = 0x20 | 0x200  # CO_GENERATOR, CO_ASYNC_GENERATOR


@dataclass
class LoaderStats:
    """One dataset's loader(s), as the report shows them."""

    dataset: str  # its class name
    samples: Optional[int] = None  # len(dataset), when it has one
    batches_per_epoch: Optional[int] = None  # what the loader would yield, when it has a length
    drawn: int = 0  # the most batches one epoch yielded
    epochs: int = 0  # epochs that ran to their (possibly capped) end
    cut: bool = False  # an epoch ended at the cap, before the loader's own end

    def as_dict(self) -> dict:
        return asdict(self)


class LoaderCaps:
    def __init__(self, max_batches: int, max_epochs: int, stopper: Stopper, loops=None):
        self.max_batches = max_batches  # 0: no cap
        self.max_epochs = max_epochs
        self.stopper = stopper
        self.loops = loops  # loops.Loops: the script's loops end at the epoch cap
        self.by_dataset: dict[int, tuple[object, LoaderStats]] = {}
        self.undo: list = []

    def install(self) -> None:
        loader = torch.utils.data.DataLoader
        original_iter, original_len = loader.__iter__, loader.__len__
        caps = self

        def __iter__(self_):
            return caps.start_epoch(self_, original_iter, original_len)

        def __len__(self_):
            length = original_len(self_)
            return min(length, caps.max_batches) if caps.max_batches else length

        loader.__iter__, loader.__len__ = __iter__, __len__
        self.undo.append(lambda: setattr(loader, "__iter__", original_iter))
        self.undo.append(lambda: setattr(loader, "__len__", original_len))

    def uninstall(self) -> None:
        while self.undo:
            self.undo.pop()()

    def stats(self, loader, original_len) -> LoaderStats:
        dataset = loader.dataset
        entry = self.by_dataset.get(id(dataset))
        if entry is None:  # the dataset is kept alive with its stats: ids stay unique
            entry = (dataset, LoaderStats(type(dataset).__name__, _length(dataset)))
            self.by_dataset[id(dataset)] = entry
        stats = entry[1]
        try:
            stats.batches_per_epoch = original_len(loader)
        except TypeError:  # an IterableDataset without a length
            pass
        return stats

    def start_epoch(self, loader, original_iter, original_len):
        self.stopper.check()
        stats = self.stats(loader, original_len)
        if self.loops is None:
            if self.max_epochs and stats.epochs >= self.max_epochs:
                self.stopper.stop("epochs")
        elif self.max_epochs and stats.epochs >= BACKSTOP * self.max_epochs:
            self.stopper.stop("epochs", stats.epochs)
        return _CappedIterator(original_iter(loader), stats, self.max_batches, self.stopper,
                               self.loops)

    def report(self) -> dict:
        return {"loaders": [stats.as_dict() for _, stats in self.by_dataset.values()]}


def _length(dataset) -> Optional[int]:
    try:
        return len(dataset)
    except TypeError:
        return None


class _CappedIterator:
    """The loader's own iterator, ended after `cap` batches."""

    def __init__(self, inner, stats: LoaderStats, cap: int, stopper: Stopper, loops=None):
        self.inner, self.stats, self.cap, self.stopper = inner, stats, cap, stopper
        self.loops = loops
        self.drawn = 0
        self.ended = False
        self.by_hand = False  # pulled with next(): never cut

    def __iter__(self):
        return self

    def __next__(self):
        self.stopper.check()
        if self.cap and self.drawn >= self.cap and not self.by_hand:
            if self.loops is None or _end_is_handled(sys._getframe(1)):
                total = self.stats.batches_per_epoch
                self._end(cut=total is None or total > self.cap)
                raise StopIteration
            self.by_hand = True
        try:
            batch = next(self.inner)
        except StopIteration:
            self._end(cut=False)
            raise
        self.drawn += 1
        return batch

    def __len__(self) -> int:
        length = len(self.inner)
        return min(length, self.cap) if self.cap else length

    def __getattr__(self, name):
        return getattr(self.inner, name)

    def _end(self, cut: bool) -> None:
        if self.ended:
            return
        self.ended = True
        self.stats.epochs += 1
        self.stats.cut = self.stats.cut or cut
        self.stats.drawn = max(self.stats.drawn, self.drawn)
        if self.loops is not None:
            self.loops.epoch_done(id(self.stats), self.stats.epochs)


def _end_is_handled(frame) -> bool:
    """Whether a StopIteration from the iterator ends a loop rather than surfacing as the
    script's exception: the frame that pulled the batch is at a `for` (a comprehension's, or
    one over `zip`/`enumerate`, which have no frame); a generator's `for` ends that generator,
    so what its own consumer does decides. `next(it)` by hand, `list(it)` and the like: not
    handled (they are not cut; the step loop around them ends at --max-steps)."""
    while frame is not None:
        code = frame.f_code
        if code.co_code[frame.f_lasti] not in _FOR_ITER:
            return False
        if not code.co_flags & _CO_GENERATOR:
            return True
        frame = frame.f_back
    return False
